// The official SDK's control-plane cycle, for bench_controlcycle: creates a `base`
// sandbox and kills it, COUNT times in a row in this one Node process, after WARMUP
// cycles that are not counted. Prints one JSON array: nanoseconds per cycle.
//   node sdk-cycle.mjs COUNT WARMUP   (E2B_API_URL, E2B_SANDBOX_URL, E2B_API_KEY set;
//                                      SD_NPM_DIR: where `e2b` is installed)
import { createRequire } from 'node:module'
import path from 'node:path'

const npmDir = process.env.SD_NPM_DIR
if (!npmDir) throw new Error('SD_NPM_DIR is not set')
const { Sandbox } = createRequire(path.join(npmDir, 'package.json'))('e2b')
const count = Number(process.argv[2] ?? 200)
const warmup = Number(process.argv[3] ?? 5)

const times = []
for (let i = 0; i < warmup + count; ++i) {
  const start = process.hrtime.bigint()
  const sandbox = await Sandbox.create('base')
  await sandbox.kill()
  const ns = process.hrtime.bigint() - start
  if (i >= warmup) times.push(Number(ns))
}
console.log(JSON.stringify(times))
