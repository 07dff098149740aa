// The fake OneBot v11 implementation (NapCat) in one import: the server, its events and segments.
// Each module names the NapCatQQ source and OneBot v11 document it follows.
export * from './napcat'
export * from './events'
export * from './segments'
