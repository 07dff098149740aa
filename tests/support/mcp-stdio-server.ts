// The test MCP server as a child process over stdio: `node -r esbuild-register mcp-stdio-server.ts`.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { testServer } from './mcp-tools'

if (process.env.MCP_TEST_BANNER) process.stderr.write(`${process.env.MCP_TEST_BANNER}\n`)
void testServer({ transport: 'stdio' }).connect(new StdioServerTransport())
