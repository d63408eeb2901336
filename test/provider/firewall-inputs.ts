/** Program inputs of a firewall that several provider tests start from. */

/** A rule as a program writes it, with `extra` fields changed. */
export const rule = (extra: Record<string, unknown> = {}) => ({
  action: "ACCEPT",
  protocol: "TCP",
  ports: "22",
  addresses: { ipv4: ["0.0.0.0/0"] },
  label: "ssh-in",
  ...extra,
});

/** A firewall's inputs, with `extra` inputs changed. */
export const args = (extra: Record<string, unknown> = {}) => ({
  label: "web-fw",
  inboundPolicy: "DROP",
  outboundPolicy: "ACCEPT",
  inbound: [rule()],
  ...extra,
});
