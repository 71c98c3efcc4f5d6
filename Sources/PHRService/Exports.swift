// A front end imports PHRService alone (docs/development.md, "Targets"): the core's types come
// with it, as PHRModel's come with PHRCore. Narrowing what is public is issue 25's item 1.
@_exported import PHRCore
