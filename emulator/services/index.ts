/**
 * The one list of services: everything the emulator serves, stores, counts, grants, runs on the
 * clock and controls comes from these modules (`core/service.ts`). The order is the route
 * table's order and the order of each account's slices and of the counters.
 */
import type { RouteSpec } from "../core/routes";
import { type ControlApis, type GlobalGrantNames, type ObjectGrantKinds, type ServiceModule, stateLayout } from "../core/service";
import { regionsModule } from "./regions/module";
import { vpcsModule } from "./vpcs/module";
import { eventsModule } from "./events/module";
import { supportModule } from "./support/module";
import { databasesModule } from "./databases/module";
import { firewallsModule } from "./firewalls/module";
import { domainsModule } from "./domains/module";
import { ipsModule } from "./ips/module";
import { vlansModule } from "./vlans/module";
import { imagesModule } from "./images/module";
import { computesModule } from "./computes/module";
import { nodebalancersModule } from "./nodebalancers/module";

const MODULES = [
  regionsModule,
  vpcsModule,
  eventsModule,
  supportModule,
  databasesModule,
  firewallsModule,
  domainsModule,
  ipsModule,
  vlansModule,
  imagesModule,
  computesModule,
  nodebalancersModule,
] as const;

/** The registered services, in order. */
export const SERVICES: readonly ServiceModule[] = MODULES;

/** Every service's route table, in one list: the emulator's API surface. */
export const API_ROUTES: readonly RouteSpec[] = SERVICES.flatMap((s) => s.routes ?? []);

/** Every slice and counter of the state. */
export const STATE_LAYOUT = stateLayout(SERVICES);

/** The services' control operations, as `EmulatorControl` offers them (`control.seedCompute`, `control.databases` …). */
export type ServiceControlApis = ControlApis<typeof MODULES>;
/** Per-object grant kinds (`vpc`, `firewall`, …) and global grants (`add_vpc`, …) restricted users can hold. */
export type ObjectGrantKind = ObjectGrantKinds<typeof MODULES>;
export type GlobalGrantName = GlobalGrantNames<typeof MODULES>;
