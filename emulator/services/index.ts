/** Every service's route table, in one list: the emulator's API surface. */
import type { FastifyInstance } from "fastify";
import type { RouteSpec } from "../core/routes";
import type { DueSource } from "../core/clock";
import type { EmulatorRuntime } from "../core/runtime";
import { databaseRoutes } from "./databases/routes";
import { databaseDueSource } from "./databases/machine";
import { domainRoutes } from "./domains/routes";
import { eventRoutes } from "./events/routes";
import { regionRoutes } from "./regions/routes";
import { vpcRoutes } from "./vpcs/routes";
import { supportRoutes } from "./support/routes";
import { firewallRoutes } from "./firewalls/routes";
import { ipRoutes } from "./ips/routes";
import { vlanRoutes } from "./vlans/routes";
import { imageRoutes } from "./images/routes";
import { imageTransitions } from "./images/machine";
import { registerImageUploads } from "./images/upload";

export const API_ROUTES: readonly RouteSpec[] = [...regionRoutes, ...vpcRoutes, ...eventRoutes, ...supportRoutes, ...databaseRoutes, ...firewallRoutes, ...domainRoutes, ...ipRoutes, ...vlanRoutes, ...imageRoutes];

/** Services whose status machines are data on their records: the clock applies their pending transitions. */
export const API_DUE_SOURCES: ReadonlyArray<(runtime: EmulatorRuntime) => DueSource> = [databaseDueSource, imageTransitions];

/** Routes a service serves outside `/v4` itself: the image upload URL, where the platform has object storage. */
export const SERVICE_APPS: ReadonlyArray<(app: FastifyInstance, runtime: EmulatorRuntime) => void> = [registerImageUploads];
