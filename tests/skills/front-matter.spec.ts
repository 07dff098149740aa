// SKILL.md front matter as skills written for OpenClaw and Anthropic's Agent Skills have it: the
// reader takes name and description in each YAML scalar form they use and skips nested keys.
import { expect } from 'chai'
import { readFrontMatter } from '../../src/skills/front-matter'

const fields = (text: string) => {
  const fm = readFrontMatter(text)
  if ('error' in fm) throw new Error(fm.error)
  return fm.fields
}

describe('skills: SKILL.md front matter', () => {
  it('reads plain, quoted and block values; skips nested maps; ignores the body', () => {
    expect(fields('---\nname: pdf\ndescription: Fill PDF forms. # a comment\n---\n# PDF\nname: not this\n')).to.deep.equal({ name: 'pdf', description: 'Fill PDF forms.' })
    expect(fields('\ufeff---\r\nname: "gif-maker"\r\ndescription: \'It\'\'s for GIFs: "animated" ones\'\r\n---\r\n')).to.deep.equal({ name: 'gif-maker', description: 'It\'s for GIFs: "animated" ones' })
    expect(fields('---\nname: a\ndescription: |\n  line one\n  line two\nmetadata:\n  openclaw:\n    requires: { bins: ["gh"] }\nlicense: MIT\n---\n'))
      .to.deep.equal({ name: 'a', description: 'line one\nline two', license: 'MIT' })
    expect(fields('---\nname: a\ndescription: starts here\n  and goes on\n---\n')).to.deep.equal({ name: 'a', description: 'starts here and goes on' })
  })

  it('says why when there is no front matter to read', () => {
    expect(readFrontMatter('# just a body\n')).to.deep.equal({ error: 'no front matter (it must start with a --- line)' })
    expect(readFrontMatter('---\nname: a\n')).to.deep.equal({ error: 'the front matter has no closing --- line' })
    expect(readFrontMatter('---\nname: a\ndescription: "open\n---\n')).to.deep.equal({ error: 'description: a double-quoted value that does not close on its line' })
  })
})
