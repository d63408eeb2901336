/** Every service's route table, in one list: the emulator's API surface. */
import type { RouteSpec } from "../core/routes";
import { eventRoutes } from "./events/routes";
import { regionRoutes } from "./regions/routes";
import { vpcRoutes } from "./vpcs/routes";
import { supportRoutes } from "./support/routes";

export const API_ROUTES: readonly RouteSpec[] = [...regionRoutes, ...vpcRoutes, ...eventRoutes, ...supportRoutes];
