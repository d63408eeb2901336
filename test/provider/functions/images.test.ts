/** The image data functions against the emulator: getImages filtered (and refusing a bad pattern), getImage by id. */
import { getImage, getImages } from "../../../provider/functions/images";
import { useProviderHarness } from "../harness";

const harness = useProviderHarness({ timeScale: 240 });

describe("data functions", () => {
  const options = () => ({ apiUrl: harness.emulator.url, token: harness.emulator.token });

  test("getImages filters by visibility, vendor, label pattern and deprecation, and picks the latest", async () => {
    const latestLts = await getImages({ isPublic: true, vendor: "Ubuntu", labelPattern: "LTS$", latest: true }, options());
    expect(latestLts.map((i) => i.id)).toEqual(["public/ubuntu22.04"]);
    expect(latestLts[0]).toMatchObject({ isPublic: true, createdBy: "compute", capabilities: ["cloud-init"] });
    const slackware = await getImages({ vendor: "Slackware", deprecated: false }, options());
    expect(slackware.map((i) => i.id)).toEqual(["public/slackware15.0"]);
    expect(await getImages({ isPublic: false }, options())).toEqual([]);
    const compute = harness.emulator.control.seedCompute({ label: "web", region: "us-iad" });
    const mine = await harness.client.images.create({ disk_id: compute.disks![0]!.id, label: "mine" });
    expect((await getImages({ isPublic: false }, options())).map((i) => i.id)).toEqual([mine.id]);
    expect((await getImages({ labelPattern: "^mine$", status: "creating" }, options())).map((i) => i.label)).toEqual(["mine"]);
  });

  test("getImages refuses a label pattern that is not a regular expression, before any request", async () => {
    harness.emulator.control.clearRequests();
    await expect(getImages({ labelPattern: "(" }, options())).rejects.toThrow(/^getImages: labelPattern "\(" is not a regular expression/);
    expect(harness.emulator.control.listRequests()).toEqual([]);
  });

  test("getImage reads one image by id, public or private", async () => {
    await expect(getImage({ id: "public/debian12" }, options())).resolves.toMatchObject({
      id: "public/debian12",
      label: "Debian 12",
      isPublic: true,
      vendor: "Debian",
    });
    await expect(getImage({ id: "private/1" }, options())).rejects.toMatchObject({ status: 404 });
  });
});
