// Preloaded into an api under benchmark (NODE_OPTIONS=--import): measures the event loop's delay from the inside.
// SIGUSR2 writes the figures since the previous signal to $CANOPY_LOOP_PROBE_FILE and starts a fresh histogram.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.CANOPY_LOOP_PROBE_FILE;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const ms = (ns: number) => ns / 1e6;
  process.on('SIGUSR2', () => {
    const figures = {
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
      samples: histogram.count,
    };
    writeFileSync(file, JSON.stringify(figures));
    histogram.reset();
  });
}
