// The official SDK's side of bench_concurrency: COUNT `Sandbox.create({ mcp })` started
// at once in this one Node process, as the SDK's documentation shows an MCP sandbox
// being made. Prints one JSON object: wall time until all settled, this process's CPU
// time, peak resident size, failures and the ids made (bench_concurrency kills them).
//   node sdk-concurrency.mjs COUNT MCP_JSON   (E2B_API_URL, E2B_SANDBOX_URL, E2B_API_KEY,
//                                              SD_NPM_DIR set)
import { createRequire } from 'node:module'
import path from 'node:path'

const npmDir = process.env.SD_NPM_DIR
if (!npmDir) throw new Error('SD_NPM_DIR is not set')
const { Sandbox } = createRequire(path.join(npmDir, 'package.json'))('e2b')
const count = Number(process.argv[2] ?? 200)
const mcp = JSON.parse(process.argv[3])

const baseMiB = process.memoryUsage().rss / (1024 * 1024)
const cpu0 = process.cpuUsage()
const start = process.hrtime.bigint()
const results = await Promise.allSettled(
  Array.from({ length: count }, () => Sandbox.create({ mcp })))
const seconds = Number(process.hrtime.bigint() - start) / 1e9
const cpu = process.cpuUsage(cpu0)
const errors = results.filter((r) => r.status === 'rejected').map((r) => String(r.reason))
console.log(JSON.stringify({
  seconds,
  cpuSeconds: (cpu.user + cpu.system) / 1e6,
  peakMiB: process.resourceUsage().maxRSS / 1024,
  baseMiB,
  failures: errors.length,
  firstError: errors[0] ?? '',
  ids: results.filter((r) => r.status === 'fulfilled').map((r) => r.value.sandboxId),
}))
