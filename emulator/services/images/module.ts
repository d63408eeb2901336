/**
 * Images: `/images*` (the public catalog and the account's private images), the upload URL the
 * emulator serves itself outside `/v4`, and the status machine on the clock.
 */
import { defineService } from "../../core/service";
import { imageTransitions } from "./machine";
import { imageRoutes } from "./routes";
import { IMAGES, IMAGE_ID } from "./store";
import { registerImageUploads } from "./upload";

export const imagesModule = defineService({
  name: "images",
  routes: imageRoutes,
  slices: [IMAGES],
  counters: [IMAGE_ID],
  clock: imageTransitions,
  register: registerImageUploads,
});
