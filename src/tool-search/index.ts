// Many tools: search instead of listing (SPEC §18, docs/tool-search.md).
export { planSearch, type SearchPlan } from './plan'
export { TOOL_SEARCH, toolSearchTool, type FoundTool, type ToolSearchOutput } from './tool'
export { ToolIndex, jsonSchemaOf } from './tool-index'
export { loadCalled, stepTools, withHidden } from './turn'
export { terms } from './terms'
