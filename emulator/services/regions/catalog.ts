/**
 * The region catalog the emulator serves: the 25 regions of a real `GET /regions` recording
 * (linodego v1.33.0 `TestRegions_List.yaml`, 2024; IPv6 resolvers were scrubbed to `1234::5678`
 * by the recorder). Copied here, not read from `shared/`, so the emulator runs on its own.
 * Fourteen regions carry the `VPCs` capability; VPCs can only be created in those. Other services
 * look regions up here (`findRegion`, `regionHasCapability`).
 */
import type { Region } from "../../../sdk/resources/regions";

export const REGION_CATALOG: readonly Region[] = [
  {
    "id": "ap-west",
    "label": "Mumbai, IN",
    "country": "in",
    "capabilities": [
      "Computes",
      "Backups",
      "NodeBalancers",
      "Block Storage",
      "GPU Computes",
      "Kubernetes",
      "Cloud Firewall",
      "Vlans",
      "Block Storage Migrations",
      "Managed Databases"
    ],
    "status": "ok",
    "resolvers": {
      "ipv4": "172.105.34.5, 172.105.35.5, 172.105.36.5, 172.105.37.5, 172.105.38.5, 172.105.39.5, 172.105.40.5, 172.105.41.5, 172.105.42.5, 172.105.43.5",
      "ipv6": "1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678"
    },
    "site_type": "core"
  },
  {
    "id": "ca-central",
    "label": "Toronto, CA",
    "country": "ca",
    "capabilities": [
      "Computes",
      "Backups",
      "NodeBalancers",
      "Block Storage",
      "Kubernetes",
      "Cloud Firewall",
      "Vlans",
      "Block Storage Migrations",
      "Managed Databases"
    ],
    "status": "ok",
    "resolvers": {
      "ipv4": "172.105.0.5, 172.105.3.5, 172.105.4.5, 172.105.5.5, 172.105.6.5, 172.105.7.5, 172.105.8.5, 172.105.9.5, 172.105.10.5, 172.105.11.5",
      "ipv6": "1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678"
    },
    "site_type": "core"
  },
  {
    "id": "ap-southeast",
    "label": "Sydney, AU",
    "country": "au",
    "capabilities": [
      "Computes",
      "Backups",
      "NodeBalancers",
      "Block Storage",
      "Kubernetes",
      "Cloud Firewall",
      "Vlans",
      "Block Storage Migrations",
      "Managed Databases"
    ],
    "status": "ok",
    "resolvers": {
      "ipv4": "172.105.166.5, 172.105.169.5, 172.105.168.5, 172.105.172.5, 172.105.162.5, 172.105.170.5, 172.105.167.5, 172.105.171.5, 172.105.181.5, 172.105.161.5",
      "ipv6": "1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678"
    },
    "site_type": "core"
  },
  {
    "id": "us-iad",
    "label": "Washington, DC",
    "country": "us",
    "capabilities": [
      "Computes",
      "Backups",
      "NodeBalancers",
      "Block Storage",
      "Object Storage",
      "Kubernetes",
      "Cloud Firewall",
      "Vlans",
      "VPCs",
      "Managed Databases",
      "Metadata",
      "Premium Plans"
    ],
    "status": "ok",
    "resolvers": {
      "ipv4": "139.144.192.62, 139.144.192.60, 139.144.192.61, 139.144.192.53, 139.144.192.54, 139.144.192.67, 139.144.192.69, 139.144.192.66, 139.144.192.52, 139.144.192.68",
      "ipv6": "1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678"
    },
    "site_type": "core"
  },
  {
    "id": "us-ord",
    "label": "Chicago, IL",
    "country": "us",
    "capabilities": [
      "Computes",
      "Backups",
      "NodeBalancers",
      "Block Storage",
      "Object Storage",
      "Kubernetes",
      "Cloud Firewall",
      "Vlans",
      "VPCs",
      "Managed Databases",
      "Metadata",
      "Premium Plans"
    ],
    "status": "ok",
    "resolvers": {
      "ipv4": "172.232.0.17, 172.232.0.16, 172.232.0.21, 172.232.0.13, 172.232.0.22, 172.232.0.9, 172.232.0.19, 172.232.0.20, 172.232.0.15, 172.232.0.18",
      "ipv6": "1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678"
    },
    "site_type": "core"
  },
  {
    "id": "fr-par",
    "label": "Paris, FR",
    "country": "fr",
    "capabilities": [
      "Computes",
      "Backups",
      "NodeBalancers",
      "Block Storage",
      "Object Storage",
      "Kubernetes",
      "Cloud Firewall",
      "Vlans",
      "VPCs",
      "Managed Databases",
      "Metadata",
      "Premium Plans"
    ],
    "status": "ok",
    "resolvers": {
      "ipv4": "172.232.32.21, 172.232.32.23, 172.232.32.17, 172.232.32.18, 172.232.32.16, 172.232.32.22, 172.232.32.20, 172.232.32.14, 172.232.32.11, 172.232.32.12",
      "ipv6": "1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678"
    },
    "site_type": "core"
  },
  {
    "id": "us-sea",
    "label": "Seattle, WA",
    "country": "us",
    "capabilities": [
      "Computes",
      "Backups",
      "NodeBalancers",
      "Block Storage",
      "Object Storage",
      "Kubernetes",
      "Cloud Firewall",
      "Vlans",
      "VPCs",
      "Metadata",
      "Premium Plans"
    ],
    "status": "ok",
    "resolvers": {
      "ipv4": "172.232.160.19, 172.232.160.21, 172.232.160.17, 172.232.160.15, 172.232.160.18, 172.232.160.8, 172.232.160.12, 172.232.160.11, 172.232.160.14, 172.232.160.16",
      "ipv6": "1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678"
    },
    "site_type": "core"
  },
  {
    "id": "br-gru",
    "label": "Sao Paulo, BR",
    "country": "br",
    "capabilities": [
      "Computes",
      "Backups",
      "NodeBalancers",
      "Block Storage",
      "Object Storage",
      "Kubernetes",
      "Cloud Firewall",
      "Vlans",
      "VPCs",
      "Metadata",
      "Premium Plans"
    ],
    "status": "ok",
    "resolvers": {
      "ipv4": "172.233.0.4, 172.233.0.9, 172.233.0.7, 172.233.0.12, 172.233.0.5, 172.233.0.13, 172.233.0.10, 172.233.0.6, 172.233.0.8, 172.233.0.11",
      "ipv6": "1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678"
    },
    "site_type": "core"
  },
  {
    "id": "nl-ams",
    "label": "Amsterdam, NL",
    "country": "nl",
    "capabilities": [
      "Computes",
      "Backups",
      "NodeBalancers",
      "Block Storage",
      "Object Storage",
      "Kubernetes",
      "Cloud Firewall",
      "Vlans",
      "VPCs",
      "Metadata",
      "Premium Plans"
    ],
    "status": "ok",
    "resolvers": {
      "ipv4": "172.233.33.36, 172.233.33.38, 172.233.33.35, 172.233.33.39, 172.233.33.34, 172.233.33.33, 172.233.33.31, 172.233.33.30, 172.233.33.37, 172.233.33.32",
      "ipv6": "1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678"
    },
    "site_type": "core"
  },
  {
    "id": "se-sto",
    "label": "Stockholm, SE",
    "country": "se",
    "capabilities": [
      "Computes",
      "Backups",
      "NodeBalancers",
      "Block Storage",
      "Object Storage",
      "Kubernetes",
      "Cloud Firewall",
      "Vlans",
      "VPCs",
      "Metadata",
      "Premium Plans"
    ],
    "status": "ok",
    "resolvers": {
      "ipv4": "172.232.128.24, 172.232.128.26, 172.232.128.20, 172.232.128.22, 172.232.128.25, 172.232.128.19, 172.232.128.23, 172.232.128.18, 172.232.128.21, 172.232.128.27",
      "ipv6": "1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678"
    },
    "site_type": "core"
  },
  {
    "id": "es-mad",
    "label": "Madrid, ES",
    "country": "es",
    "capabilities": [
      "Computes",
      "Backups",
      "NodeBalancers",
      "Block Storage",
      "Object Storage",
      "Kubernetes",
      "Cloud Firewall",
      "Vlans",
      "VPCs",
      "Metadata",
      "Premium Plans"
    ],
    "status": "ok",
    "resolvers": {
      "ipv4": "172.233.111.6, 172.233.111.17, 172.233.111.21, 172.233.111.25, 172.233.111.19, 172.233.111.12, 172.233.111.26, 172.233.111.16, 172.233.111.18, 172.233.111.9",
      "ipv6": "1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678"
    },
    "site_type": "core"
  },
  {
    "id": "in-maa",
    "label": "Chennai, IN",
    "country": "in",
    "capabilities": [
      "Computes",
      "Backups",
      "NodeBalancers",
      "Block Storage",
      "Object Storage",
      "Kubernetes",
      "Cloud Firewall",
      "Vlans",
      "VPCs",
      "Metadata",
      "Premium Plans"
    ],
    "status": "ok",
    "resolvers": {
      "ipv4": "172.232.96.17, 172.232.96.26, 172.232.96.19, 172.232.96.20, 172.232.96.25, 172.232.96.21, 172.232.96.18, 172.232.96.22, 172.232.96.23, 172.232.96.24",
      "ipv6": "1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678"
    },
    "site_type": "core"
  },
  {
    "id": "jp-osa",
    "label": "Osaka, JP",
    "country": "jp",
    "capabilities": [
      "Computes",
      "Backups",
      "NodeBalancers",
      "Block Storage",
      "Object Storage",
      "Kubernetes",
      "Cloud Firewall",
      "Vlans",
      "VPCs",
      "Metadata",
      "Premium Plans"
    ],
    "status": "ok",
    "resolvers": {
      "ipv4": "172.233.64.44, 172.233.64.43, 172.233.64.37, 172.233.64.40, 172.233.64.46, 172.233.64.41, 172.233.64.39, 172.233.64.42, 172.233.64.45, 172.233.64.38",
      "ipv6": "1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678"
    },
    "site_type": "core"
  },
  {
    "id": "it-mil",
    "label": "Milan, IT",
    "country": "it",
    "capabilities": [
      "Computes",
      "Backups",
      "NodeBalancers",
      "Block Storage",
      "Object Storage",
      "Kubernetes",
      "Cloud Firewall",
      "Vlans",
      "VPCs",
      "Metadata",
      "Premium Plans"
    ],
    "status": "ok",
    "resolvers": {
      "ipv4": "172.232.192.19, 172.232.192.18, 172.232.192.16, 172.232.192.20, 172.232.192.24, 172.232.192.21, 172.232.192.22, 172.232.192.17, 172.232.192.15, 172.232.192.23",
      "ipv6": "1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678"
    },
    "site_type": "core"
  },
  {
    "id": "us-mia",
    "label": "Miami, FL",
    "country": "us",
    "capabilities": [
      "Computes",
      "Backups",
      "NodeBalancers",
      "Block Storage",
      "Object Storage",
      "Kubernetes",
      "Cloud Firewall",
      "Vlans",
      "VPCs",
      "Metadata",
      "Premium Plans"
    ],
    "status": "ok",
    "resolvers": {
      "ipv4": "172.233.160.34, 172.233.160.27, 172.233.160.30, 172.233.160.29, 172.233.160.32, 172.233.160.28, 172.233.160.33, 172.233.160.26, 172.233.160.25, 172.233.160.31",
      "ipv6": "1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678"
    },
    "site_type": "core"
  },
  {
    "id": "id-cgk",
    "label": "Jakarta, ID",
    "country": "id",
    "capabilities": [
      "Computes",
      "Backups",
      "NodeBalancers",
      "Block Storage",
      "Object Storage",
      "Kubernetes",
      "Cloud Firewall",
      "Vlans",
      "VPCs",
      "Metadata",
      "Premium Plans"
    ],
    "status": "ok",
    "resolvers": {
      "ipv4": "172.232.224.23, 172.232.224.32, 172.232.224.26, 172.232.224.27, 172.232.224.21, 172.232.224.24, 172.232.224.22, 172.232.224.20, 172.232.224.31, 172.232.224.28",
      "ipv6": "1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678"
    },
    "site_type": "core"
  },
  {
    "id": "us-lax",
    "label": "Los Angeles, CA",
    "country": "us",
    "capabilities": [
      "Computes",
      "Backups",
      "NodeBalancers",
      "Block Storage",
      "Object Storage",
      "Kubernetes",
      "Cloud Firewall",
      "Vlans",
      "VPCs",
      "Metadata",
      "Premium Plans"
    ],
    "status": "ok",
    "resolvers": {
      "ipv4": "172.233.128.45, 172.233.128.38, 172.233.128.53, 172.233.128.37, 172.233.128.34, 172.233.128.36, 172.233.128.33, 172.233.128.39, 172.233.128.43, 172.233.128.44",
      "ipv6": "1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678"
    },
    "site_type": "core"
  },
  {
    "id": "us-central",
    "label": "Dallas, TX",
    "country": "us",
    "capabilities": [
      "Computes",
      "Backups",
      "NodeBalancers",
      "Block Storage",
      "Kubernetes",
      "Cloud Firewall",
      "Vlans",
      "Block Storage Migrations",
      "Managed Databases"
    ],
    "status": "ok",
    "resolvers": {
      "ipv4": "72.14.179.5, 72.14.188.5, 173.255.199.5, 66.228.53.5, 96.126.122.5, 96.126.124.5, 96.126.127.5, 198.58.107.5, 198.58.111.5, 23.239.24.5",
      "ipv6": "1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678"
    },
    "site_type": "core"
  },
  {
    "id": "us-west",
    "label": "Fremont, CA",
    "country": "us",
    "capabilities": [
      "Computes",
      "Backups",
      "NodeBalancers",
      "Block Storage",
      "Kubernetes",
      "Cloud Firewall",
      "Vlans",
      "Block Storage Migrations",
      "Managed Databases"
    ],
    "status": "ok",
    "resolvers": {
      "ipv4": "173.230.145.5, 173.230.147.5, 173.230.155.5, 173.255.212.5, 173.255.219.5, 173.255.241.5, 173.255.243.5, 173.255.244.5, 74.207.241.5, 74.207.242.5",
      "ipv6": "1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678"
    },
    "site_type": "core"
  },
  {
    "id": "us-southeast",
    "label": "Atlanta, GA",
    "country": "us",
    "capabilities": [
      "Computes",
      "Backups",
      "NodeBalancers",
      "Block Storage",
      "Object Storage",
      "GPU Computes",
      "Kubernetes",
      "Cloud Firewall",
      "Vlans",
      "Block Storage Migrations",
      "Managed Databases"
    ],
    "status": "ok",
    "resolvers": {
      "ipv4": "74.207.231.5, 173.230.128.5, 173.230.129.5, 173.230.136.5, 173.230.140.5, 66.228.59.5, 66.228.62.5, 50.116.35.5, 50.116.41.5, 23.239.18.5",
      "ipv6": "1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678"
    },
    "site_type": "core"
  },
  {
    "id": "us-east",
    "label": "Newark, NJ",
    "country": "us",
    "capabilities": [
      "Computes",
      "Backups",
      "NodeBalancers",
      "Block Storage",
      "Object Storage",
      "GPU Computes",
      "Kubernetes",
      "Cloud Firewall",
      "Vlans",
      "Block Storage Migrations",
      "Managed Databases"
    ],
    "status": "ok",
    "resolvers": {
      "ipv4": "66.228.42.5, 96.126.106.5, 50.116.53.5, 50.116.58.5, 50.116.61.5, 50.116.62.5, 66.175.211.5, 97.107.133.4, 207.192.69.4, 207.192.69.5",
      "ipv6": "1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678"
    },
    "site_type": "core"
  },
  {
    "id": "eu-west",
    "label": "London, UK",
    "country": "gb",
    "capabilities": [
      "Computes",
      "Backups",
      "NodeBalancers",
      "Block Storage",
      "Kubernetes",
      "Cloud Firewall",
      "Vlans",
      "Block Storage Migrations",
      "Managed Databases"
    ],
    "status": "ok",
    "resolvers": {
      "ipv4": "178.79.182.5, 176.58.107.5, 176.58.116.5, 176.58.121.5, 151.236.220.5, 212.71.252.5, 212.71.253.5, 109.74.192.20, 109.74.193.20, 109.74.194.20",
      "ipv6": "1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678"
    },
    "site_type": "core"
  },
  {
    "id": "ap-south",
    "label": "Singapore, SG",
    "country": "sg",
    "capabilities": [
      "Computes",
      "Backups",
      "NodeBalancers",
      "Block Storage",
      "Object Storage",
      "GPU Computes",
      "Kubernetes",
      "Cloud Firewall",
      "Vlans",
      "Block Storage Migrations",
      "Managed Databases"
    ],
    "status": "ok",
    "resolvers": {
      "ipv4": "139.162.11.5, 139.162.13.5, 139.162.14.5, 139.162.15.5, 139.162.16.5, 139.162.21.5, 139.162.27.5, 103.3.60.18, 103.3.60.19, 103.3.60.20",
      "ipv6": "1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678"
    },
    "site_type": "core"
  },
  {
    "id": "eu-central",
    "label": "Frankfurt, DE",
    "country": "de",
    "capabilities": [
      "Computes",
      "Backups",
      "NodeBalancers",
      "Block Storage",
      "Object Storage",
      "GPU Computes",
      "Kubernetes",
      "Cloud Firewall",
      "Vlans",
      "Block Storage Migrations",
      "Managed Databases"
    ],
    "status": "ok",
    "resolvers": {
      "ipv4": "139.162.130.5, 139.162.131.5, 139.162.132.5, 139.162.133.5, 139.162.134.5, 139.162.135.5, 139.162.136.5, 139.162.137.5, 139.162.138.5, 139.162.139.5",
      "ipv6": "1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678"
    },
    "site_type": "core"
  },
  {
    "id": "ap-northeast",
    "label": "Tokyo, JP",
    "country": "jp",
    "capabilities": [
      "Computes",
      "Backups",
      "NodeBalancers",
      "Block Storage",
      "Kubernetes",
      "Cloud Firewall",
      "Vlans",
      "Block Storage Migrations",
      "Managed Databases"
    ],
    "status": "ok",
    "resolvers": {
      "ipv4": "139.162.66.5, 139.162.67.5, 139.162.68.5, 139.162.69.5, 139.162.70.5, 139.162.71.5, 139.162.72.5, 139.162.73.5, 139.162.74.5, 139.162.75.5",
      "ipv6": "1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678, 1234::5678"
    },
    "site_type": "core"
  }
];

export function findRegion(id: string): Region | undefined {
  return REGION_CATALOG.find((r) => r.id === id);
}

export function regionHasCapability(region: Region, capability: string): boolean {
  return region.capabilities.includes(capability);
}
