/**
 * Control operations for instances (the API's compute endpoints are not emulated): seed one, start
 * or end its live migration, remove one of its interfaces. In-process as `control.seedCompute`,
 * `control.setComputeMigration`, `control.deleteInterface`; over HTTP under `/__emulator/seed/computes`.
 */
import { z } from "zod";
import { notFound } from "../../core/errors";
import { parseInput, seeder, serviceControl } from "../../core/service";
import { ComputeSeedRequest, seedCompute } from "./seed";
import { deleteInterface, setMigrating } from "./operations";

/** `POST /seed/computes/{id}/migration`: starts (`true`) or ends (`false`) a live migration. */
export const ComputeMigrationRequest = z.strictObject({ migrating: z.boolean({ error: "migrating must be true or false" }) });
export type ComputeMigrationInput = z.input<typeof ComputeMigrationRequest>;

export const computesControl = serviceControl({
  api: (context) => ({
    /** Seeds an instance with its interfaces, addresses and disks; answers it with every id filled in. */
    seedCompute: seeder(context, ComputeSeedRequest, seedCompute),
    /** Starts or ends a live migration of a seeded instance (whichever account owns it). */
    setComputeMigration(computeId: number, input: ComputeMigrationInput): void {
      const { migrating } = parseInput(ComputeMigrationRequest, input);
      const changed = Object.values(context.runtime.state.accounts).some((a) => setMigrating(a, computeId, migrating));
      if (!changed) throw notFound();
      context.runtime.persist();
    },
    /** Removes an interface of a seeded instance (whichever account owns it), freeing its subnet address. */
    deleteInterface(computeId: number, configId: number, interfaceId: number): void {
      const removed = Object.values(context.runtime.state.accounts).some((a) => deleteInterface(a, computeId, configId, interfaceId));
      if (!removed) throw notFound();
      context.runtime.persist();
    },
  }),
  routes: (api) => [
    { method: "POST", path: "/seed/computes", handler: (r) => api.seedCompute(r.body()) },
    {
      method: "POST",
      path: "/seed/computes/:computeId/migration",
      handler: (r) => (api.setComputeMigration(r.id("computeId"), r.body()), {}),
    },
    {
      method: "DELETE",
      path: "/seed/computes/:computeId/configs/:configId/interfaces/:interfaceId",
      handler: (r) => (api.deleteInterface(r.id("computeId"), r.id("configId"), r.id("interfaceId")), {}),
    },
  ],
});
