/** Two private images: one captured from an instance's disk, one uploaded from a file. */
import * as pulumi from "@pulumi/pulumi";
import * as compute from "../../provider";
import { exampleImageFile } from "../support/files";

export async function imagesExample(): Promise<Record<string, unknown>> {
  const diskId = new pulumi.Config("compute-examples").requireNumber("diskId");
  const captured = new compute.Image("captured", { diskId, label: "example-capture", description: "captured from a disk" });
  const uploaded = new compute.Image("uploaded", {
    label: "example-upload",
    region: "us-iad",
    filePath: await exampleImageFile("example"),
    cloudInit: true,
  });
  const publicImages = await compute.getImages({ isPublic: true });
  return { captured: captured.id, uploaded: uploaded.id, uploadedSize: uploaded.size, publicImages: publicImages.length };
}
