import StageTesting

let guide = StageGuide(
  doc: "Docs/02-DataSources.md",
  tasks: [
    1: "Decode the real dates",
    2: "Map the DTO to the domain",
    3: "Build requests from an Endpoint",
    4: "Fetch through the remote data source",
    5: "Keep products in the in-memory local source",
    6: "Point the view model at the protocol",
  ]
)
