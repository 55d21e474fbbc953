import CatalogServer
import Testing
