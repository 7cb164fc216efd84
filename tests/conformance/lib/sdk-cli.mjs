// A tiny command-line front to the official SDK for the cross-client test:
//   node sdk-cli.mjs create <template> '<metadata json>'   -> prints the sandbox id
//   node sdk-cli.mjs list '<metadata json>'                -> prints [{sandboxId, metadata, state}]
// Connection comes from E2B_API_URL / E2B_SANDBOX_URL / E2B_API_KEY, as for any SDK user.
import { sdk } from './backend.mjs'

const { Sandbox } = sdk()
const [command, ...args] = process.argv.slice(2)

if (command === 'create') {
  const sbx = await Sandbox.create(args[0], { metadata: JSON.parse(args[1] ?? '{}') })
  console.log(sbx.sandboxId)
} else if (command === 'list') {
  const paginator = Sandbox.list({ query: { metadata: JSON.parse(args[0] ?? '{}'), state: ['running', 'paused'] } })
  const all = []
  while (paginator.hasNext) all.push(...(await paginator.nextItems()))
  console.log(JSON.stringify(all.map(({ sandboxId, metadata, state, templateId }) => ({ sandboxId, metadata, state, templateId }))))
} else {
  console.error(`unknown command ${command}`)
  process.exit(2)
}
