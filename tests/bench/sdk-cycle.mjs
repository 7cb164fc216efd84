// The official SDK's creation cycle, for bench_controlcycle and bench_mcpcycle:
// creates a sandbox and kills it, COUNT times in a row in this one Node process, after
// WARMUP cycles that are not counted. Without MCP_JSON a `base` sandbox
// (`Sandbox.create('base')`); with it `Sandbox.create({ mcp })`, which makes an
// `mcp-gateway` sandbox and starts the gateway in it, as the SDK's documentation shows.
// Each cycle comes PAUSE_MS after the one before (not counted; 0 by default). Prints
// one JSON object: nanoseconds per cycle (`ns`) and this process's CPU time per cycle
// (`cpuNs`, all its threads).
//   node sdk-cycle.mjs COUNT WARMUP [MCP_JSON|''] [PAUSE_MS]
//        (E2B_API_URL, E2B_SANDBOX_URL, E2B_API_KEY set; SD_NPM_DIR: where `e2b` is)
import { createRequire } from 'node:module'
import path from 'node:path'

const npmDir = process.env.SD_NPM_DIR
if (!npmDir) throw new Error('SD_NPM_DIR is not set')
const { Sandbox } = createRequire(path.join(npmDir, 'package.json'))('e2b')
const count = Number(process.argv[2] ?? 200)
const warmup = Number(process.argv[3] ?? 5)
const mcp = process.argv[4] ? JSON.parse(process.argv[4]) : undefined
const pauseMs = Number(process.argv[5] ?? 0)

const ns = []
const cpuNs = []
for (let i = 0; i < warmup + count; ++i) {
  if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs))
  const cpu0 = process.cpuUsage()
  const start = process.hrtime.bigint()
  const sandbox = mcp ? await Sandbox.create({ mcp }) : await Sandbox.create('base')
  await sandbox.kill()
  const elapsed = process.hrtime.bigint() - start
  const cpu = process.cpuUsage(cpu0)
  if (i >= warmup) {
    ns.push(Number(elapsed))
    cpuNs.push((cpu.user + cpu.system) * 1000)
  }
}
console.log(JSON.stringify({ ns, cpuNs }))
