// `npm start`: builds the web app, then runs the api (which serves it) on the embedded defaults.
import { execSync } from 'node:child_process';

execSync('npm run -s build', { stdio: ['ignore', 'ignore', 'inherit'] });
await import('../apps/api/src/main.ts');
