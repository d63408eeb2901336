/**
 * The public distribution images, as the recorded listing has them (`fixtures/image.list.json`:
 * ids, labels, vendors, sizes, deprecation and capabilities). The recording's timestamps are the
 * recorder's placeholder, so `created` is each release's date and `eol` the vendor's announced
 * end of life (null where the recording has none: rolling releases). Public images are the same
 * for every account and never change, so they live here, not in the state.
 */
import type { Image } from "../../../sdk/resources/images";

/** `created_by` of public images (api-facts P2-10: the provider's name). */
export const PUBLIC_IMAGE_CREATOR = "compute";

interface CatalogEntry {
  id: string;
  label: string;
  vendor: string;
  size: number;
  deprecated: boolean;
  cloudInit: boolean;
  /** Release date, `YYYY-MM-DD`. */
  created: string;
  /** End of life, `YYYY-MM-DD`, or null. */
  eol: string | null;
}

const entry = (
  id: string,
  label: string,
  vendor: string,
  size: number,
  created: string,
  eol: string | null,
  extra: Partial<CatalogEntry> = {},
): CatalogEntry => ({
  id: `public/${id}`,
  label,
  vendor,
  size,
  deprecated: false,
  cloudInit: false,
  created,
  eol,
  ...extra,
});

const deprecated = { deprecated: true };
const cloudInit = { cloudInit: true };

/** In the recorded listing's order. */
const ENTRIES: readonly CatalogEntry[] = [
  entry("almalinux8", "AlmaLinux 8", "AlmaLinux", 1700, "2021-03-30", "2029-03-01"),
  entry("almalinux9", "AlmaLinux 9", "AlmaLinux", 1700, "2022-05-26", "2032-05-31"),
  entry("alpine3.16", "Alpine 3.16", "Alpine", 400, "2022-05-23", "2024-05-23"),
  entry("alpine3.17", "Alpine 3.17", "Alpine", 400, "2022-11-22", "2024-11-22"),
  entry("alpine3.18", "Alpine 3.18", "Alpine", 400, "2023-05-09", "2025-05-09"),
  entry("alpine3.19", "Alpine 3.19", "Alpine", 400, "2023-12-07", "2025-11-01"),
  entry("arch", "Arch Linux", "Arch", 1500, "2014-09-24", null),
  entry("centos7", "CentOS 7", "CentOS", 2800, "2014-07-07", "2024-06-30"),
  entry("centos-stream8", "CentOS Stream 8", "CentOS", 2600, "2019-09-24", "2024-05-31"),
  entry("centos-stream9", "CentOS Stream 9", "CentOS", 1200, "2021-12-03", "2027-05-31"),
  entry("debian10", "Debian 10", "Debian", 1500, "2019-07-06", "2024-06-30"),
  entry("debian11", "Debian 11", "Debian", 1500, "2021-08-14", "2026-08-15", cloudInit),
  entry("debian12", "Debian 12", "Debian", 1500, "2023-06-10", "2028-06-10"),
  entry("fedora38", "Fedora 38", "Fedora", 1600, "2023-04-18", "2024-05-21"),
  entry("fedora39", "Fedora 39", "Fedora", 1800, "2023-11-07", "2024-11-26"),
  entry("gentoo", "Gentoo", "Gentoo", 6500, "2014-09-24", null),
  entry("kali", "Kali Linux", "Kali", 1536, "2020-10-27", null),
  entry("debian11-kube-v1.26.1", "Kubernetes 1.26.1 on Debian 11", "Debian", 3500, "2023-02-01", "2026-08-15"),
  entry("debian11-kube-v1.26.12", "Kubernetes 1.26.12 on Debian 11", "Debian", 3500, "2023-12-20", "2026-08-15"),
  entry("debian11-kube-v1.26.3", "Kubernetes 1.26.3 on Debian 11", "Debian", 3500, "2023-03-22", "2026-08-15"),
  entry("debian11-kube-v1.27.5", "Kubernetes 1.27.5 on Debian 11", "Debian", 3500, "2023-09-06", "2026-08-15"),
  entry("debian11-kube-v1.27.9", "Kubernetes 1.27.9 on Debian 11", "Debian", 3500, "2023-12-20", "2026-08-15"),
  entry("debian11-kube-v1.28.3", "Kubernetes 1.28.3 on Debian 11", "Debian", 3500, "2023-11-01", "2026-08-15"),
  entry("opensuse15.5", "openSUSE Leap 15.5", "openSUSE", 1550, "2023-06-07", "2024-12-31"),
  entry("rocky8", "Rocky Linux 8", "Rocky", 2300, "2021-06-21", "2029-05-31"),
  entry("rocky9", "Rocky Linux 9", "Rocky", 2300, "2022-07-14", "2032-05-31"),
  entry("slackware15.0", "Slackware 15.0", "Slackware", 11000, "2022-02-03", null),
  entry("ubuntu20.04", "Ubuntu 20.04 LTS", "Ubuntu", 2000, "2020-04-23", "2025-04-02", cloudInit),
  entry("ubuntu22.04", "Ubuntu 22.04 LTS", "Ubuntu", 3500, "2022-04-21", "2027-04-01", cloudInit),
  entry("ubuntu23.04", "Ubuntu 23.04", "Ubuntu", 3500, "2023-04-20", "2024-01-25"),
  entry("ubuntu23.10", "Ubuntu 23.10", "Ubuntu", 3500, "2023-10-12", "2024-07-11", cloudInit),
  entry("debian9", "Debian 9", "Debian", 1600, "2017-06-17", "2022-06-30", deprecated),
  entry("fedora37", "Fedora 37", "Fedora", 1800, "2022-11-15", "2023-12-05", deprecated),
  entry("opensuse15.4", "openSUSE Leap 15.4", "openSUSE", 1550, "2022-06-08", "2023-12-31", deprecated),
  entry("slackware14.1", "Slackware 14.1", "Slackware", 1000, "2013-11-04", "2024-01-01", deprecated),
  entry("slackware14.2", "Slackware 14.2", "Slackware", 6000, "2016-07-01", "2024-01-01", deprecated),
  entry("ubuntu16.04lts", "Ubuntu 16.04 LTS", "Ubuntu", 2700, "2016-04-21", "2021-04-02", deprecated),
  entry("ubuntu18.04", "Ubuntu 18.04 LTS", "Ubuntu", 2700, "2018-04-26", "2023-05-31", deprecated),
  entry("ubuntu22.10", "Ubuntu 22.10", "Ubuntu", 3500, "2022-10-20", "2023-07-20", deprecated),
];

const timestamp = (date: string) => `${date}T00:00:00`;

/** A public image in the recorded key order (`fixtures/image.get.public.json`). */
function render(e: CatalogEntry): Image {
  return {
    id: e.id,
    label: e.label,
    deprecated: e.deprecated,
    size: e.size,
    created: timestamp(e.created),
    updated: timestamp(e.created),
    description: "",
    created_by: PUBLIC_IMAGE_CREATOR,
    type: "manual",
    is_public: true,
    vendor: e.vendor,
    expiry: null,
    eol: e.eol === null ? null : timestamp(e.eol),
    status: "available",
    capabilities: e.cloudInit ? ["cloud-init"] : [],
  };
}

/** Every public image, rendered, in listing order. Fresh objects each call: callers may not share them. */
export function publicImages(): Image[] {
  return ENTRIES.map(render);
}

export function findPublicImage(id: string): Image | undefined {
  const found = ENTRIES.find((e) => e.id === id);
  return found ? render(found) : undefined;
}

export function isPublicImageId(id: string): boolean {
  return id.startsWith("public/");
}
