// The Mastra side of tests/bench/bench_pipeline.py: 20,000 text deltas through a Mastra agent's stream, with no
// processors and with five pass-through output stream processors; CPU and wall-clock microseconds per chunk,
// medians of 5 runs, printed as the Python script prints them so the two can be read side by side.
//
// Run (Node and the npm registry needed; nothing of it is part of the test run):
//   cd tests/bench/mastra && npm ci --ignore-scripts && node bench_pipeline.mjs
// The model is a scripted AI SDK (v2 specification) model object whose one answer is 20,000 exact deltas, the
// counterpart of the Python script's ScriptedModel: no network, no provider.
import { Agent } from '@mastra/core/agent';

const CHUNKS = 20_000;
const ROUNDS = 5;

function scriptedModel() {
  return {
    specificationVersion: 'v2',
    provider: 'bench',
    modelId: 'scripted',
    supportedUrls: {},
    async doGenerate() {
      throw new Error('the benchmark streams only');
    },
    async doStream() {
      const stream = new ReadableStream({
        start(controller) {
          controller.enqueue({ type: 'stream-start', warnings: [] });
          controller.enqueue({ type: 'text-start', id: 't1' });
          for (let i = 0; i < CHUNKS; i++) controller.enqueue({ type: 'text-delta', id: 't1', delta: 'tok ' });
          controller.enqueue({ type: 'text-end', id: 't1' });
          controller.enqueue({
            type: 'finish',
            finishReason: 'stop',
            usage: { inputTokens: 1, outputTokens: CHUNKS, totalTokens: CHUNKS + 1 },
          });
          controller.close();
        },
      });
      return { stream };
    },
  };
}

function passThrough(index) {
  return { id: `pass-${index}`, processOutputStream: async ({ part }) => part };
}

async function oneRun(processors) {
  const agent = new Agent({
    id: 'bench',
    name: 'bench',
    instructions: 'Answer.',
    model: scriptedModel(),
    outputProcessors: processors,
  });
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const stream = await agent.stream('go');
  let count = 0;
  for await (const chunk of stream.fullStream) {
    if (chunk.type === 'text-delta') count += 1;
  }
  const elapsed = (performance.now() - started) * 1000;
  const cpu = process.cpuUsage(cpuStarted);
  if (count !== CHUNKS) throw new Error(`expected ${CHUNKS} text deltas, got ${count}`);
  return [elapsed / CHUNKS, (cpu.user + cpu.system) / CHUNKS];
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const { version } = (await import('@mastra/core/package.json', { with: { type: 'json' } })).default;
console.log(`Mastra ${version} (@mastra/core) on Node ${process.versions.node}`);
const results = {};
for (const [label, factory] of [
  ['no processors', () => []],
  ['five pass-through stream processors', () => [0, 1, 2, 3, 4].map(passThrough)],
]) {
  const timings = [];
  for (let round = 0; round < ROUNDS; round++) timings.push(await oneRun(factory()));
  const wall = median(timings.map((t) => t[0]));
  const cpu = median(timings.map((t) => t[1]));
  results[label] = cpu;
  const best = Math.min(...timings.map((t) => t[0]));
  console.log(
    `${label.padEnd(40)} ${cpu.toFixed(2).padStart(6)} µs/chunk CPU, ${wall.toFixed(2).padStart(6)} µs wall ` +
      `(medians of ${ROUNDS}; best wall ${best.toFixed(2)})`,
  );
}
const base = results['no processors'];
const five = results['five pass-through stream processors'];
console.log(`${'cost of five processors'.padEnd(40)} ${(five - base).toFixed(2).padStart(6)} µs/chunk`);
