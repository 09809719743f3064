// Validates SARIF files against the SARIF 2.1.0 JSON schema (the copy Microsoft ships with its
// SARIF multitool, @microsoft/sarif-multitool-linux, pinned) with Ajv's JSON Schema 2020-12
// validator and its formats (ajv, ajv-formats, pinned).
//
//   node validate-sarif.mjs FILE...
//
// Prints "valid: FILE" or every error with its path on stderr; exit status 0 when all are valid.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const require = createRequire(import.meta.url);
const schema = JSON.parse(readFileSync(require.resolve('@microsoft/sarif-multitool-linux/sarif-2.1.0.json'), 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);
let failed = false;
for (const file of process.argv.slice(2)) {
    const log = JSON.parse(readFileSync(file, 'utf8'));
    if (validate(log)) {
        console.error(`valid: ${file}`);
    } else {
        failed = true;
        for (const e of validate.errors)
            console.error(`${file}: ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
    }
}
process.exit(failed ? 1 : 0);
