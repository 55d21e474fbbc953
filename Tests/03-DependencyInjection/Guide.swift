import StageTesting

let guide = StageGuide(
  doc: "Docs/03-DependencyInjection.md",
  tasks: [
    1: "Put a repository in front of the data source",
    2: "Show every state",
    3: "Load once at a time",
    4: "Retry after a failure",
    5: "Wire the app in one place",
  ]
)
