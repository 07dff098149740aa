// Model-facing prose kept beside its code, loaded as a string (esbuild's text loader; scripts/register-text.cjs from sources).
declare module '*.txt' {
  const text: string
  export default text
}
declare module '*.md' {
  const text: string
  export default text
}
