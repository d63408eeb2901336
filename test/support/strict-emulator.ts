/**
 * Jest's setup file: every emulator this project's tests start, in-process or as a child process,
 * refuses body fields an endpoint does not know (`strict`), so a misspelt field in the sdk or the
 * provider fails a test instead of being ignored as the real API ignores it. The contract tests of
 * real clients choose the API's own behaviour with `strict: false`.
 */
import { STRICT_ENV } from "../../emulator/core/unknown-fields";

process.env[STRICT_ENV] = "1";
