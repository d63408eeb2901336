/**
 * The fuzz world of a jest test file: started before the file's tests and closed after them (the
 * fuzzer's own file and the file of what it found each have one). Not re-exported by `index.ts`,
 * which the bench loads outside jest.
 */
import { startFuzzWorld, type FuzzWorld } from "./run";

/** Registers the file's hooks; the returned function gives the world once the tests run. */
export function fileFuzzWorld(): () => FuzzWorld {
  let world: FuzzWorld | undefined;
  beforeAll(async () => {
    world = await startFuzzWorld();
  });
  afterAll(async () => {
    await world?.close();
  });
  return () => world!;
}
