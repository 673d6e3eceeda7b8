// Lints fixtures with ESLint's API in a plain Node process (jest's VM cannot load eslint.config.mjs).
// stdin: JSON [{ filePath, code }]; stdout: JSON [{ filePath, messages: [{ ruleId, severity, message }] }].
import { createProjectGraphAsync } from '@nx/devkit';
import { ESLint } from 'eslint';

process.env.NX_DAEMON = 'false';
const input = JSON.parse(
  await new Promise((resolve) => {
    let text = '';
    process.stdin.on('data', (chunk) => (text += chunk));
    process.stdin.on('end', () => resolve(text));
  }),
);
// @nx/enforce-module-boundaries reads the cached project graph (and is skipped, with a warning, without one)
await createProjectGraphAsync({ exitOnError: false });
const eslint = new ESLint({ cwd: process.cwd() });
const out = [];
for (const { filePath, code } of input) {
  const [result] = await eslint.lintText(code, { filePath });
  out.push({ filePath, messages: result.messages.map(({ ruleId, severity, message }) => ({ ruleId, severity, message })) });
}
process.stdout.write(JSON.stringify(out));
