/** Regions and plan availability: a recorded catalog, no state. */
import { defineService } from "../../core/service";
import { regionRoutes } from "./routes";

export const regionsModule = defineService({ name: "regions", routes: regionRoutes });
