// The official SDK's side of bench_streaming: connects to SANDBOX_ID and runs COMMAND
// with `commands.run(cmd, { onStdout })`, as its documentation shows, counting the
// bytes. A 1 ms interval runs throughout; the longest gap between its ticks is the
// longest stall of Node's event loop. Prints one JSON object.
//   node sdk-stream.mjs SANDBOX_ID COMMAND   (E2B_API_URL, E2B_SANDBOX_URL, E2B_API_KEY,
//                                             SD_NPM_DIR set)
import { createRequire } from 'node:module'
import path from 'node:path'

const npmDir = process.env.SD_NPM_DIR
if (!npmDir) throw new Error('SD_NPM_DIR is not set')
const { Sandbox } = createRequire(path.join(npmDir, 'package.json'))('e2b')
const [sandboxId, command] = process.argv.slice(2)

const sandbox = await Sandbox.connect(sandboxId)
const baseMiB = process.memoryUsage().rss / (1024 * 1024)
let bytes = 0
let longest = 0n
let last = process.hrtime.bigint()
const tick = setInterval(() => {
  const now = process.hrtime.bigint()
  if (now - last > longest) longest = now - last
  last = now
}, 1)
const start = process.hrtime.bigint()
await sandbox.commands.run(command, {
  onStdout: (data) => { bytes += Buffer.byteLength(data) },
  timeoutMs: 0,
})
const seconds = Number(process.hrtime.bigint() - start) / 1e9
clearInterval(tick)
console.log(JSON.stringify({
  seconds,
  bytes,
  longestStallMs: Number(longest) / 1e6,
  peakMiB: process.resourceUsage().maxRSS / 1024,
  baseMiB,
}))
