import { main } from './admin-cli';

// `npm run -s admin -- company create|plan|list`: see admin-cli.ts
void main(process.argv.slice(2), process.env).then((code) => process.exit(code));
