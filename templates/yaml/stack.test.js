// The stack's test (`npm test`, Node's own test runner): the program through the Pulumi engine on
// an emulated account of its own (pulumi-compute/testing), its clock fast, so the database is
// active in seconds: what `up` makes (the app's two instances behind their firewall, each at a
// name of its own, the database open to the data subnet and the app's VPC addresses), a label changed by hand that `refresh` sees and `up`
// repairs, and `destroy`, which leaves nothing.
const assert = require("node:assert/strict");
const { test } = require("node:test");
const { emulatedStack } = require("pulumi-compute/testing");

test(
  "up makes the network, the app behind its firewall at its names, and a database over TLS that admits the subnet and the app; drift is repaired; destroy leaves nothing",
  { timeout: 300_000 },
  async () => {
    const stack = await emulatedStack(__dirname);
    try {
      await stack.up();
      const outputs = await stack.outputs();
      assert.match(outputs.dbHost, /^\S+\.\S+$/);
      assert.equal(outputs.dbPort, 3306);
      const [vpc] = await stack.client.vpcs.listAll();
      assert.equal(vpc.label, "app-net");
      const [db] = await stack.client.databases.mysql.listAll();
      assert.equal(db.ssl_connection, true);
      assert.deepEqual(db.allow_list, ["10.0.2.0/24", "10.0.1.11", "10.0.1.12"]);
      const apps = (await stack.client.computes.instances.listAll()).sort((a, b) => a.label.localeCompare(b.label));
      assert.deepEqual(
        apps.map((a) => [a.label, a.status]),
        [
          ["app-1", "running"],
          ["app-2", "running"],
        ],
      );
      const [firewall] = await stack.client.networking.firewalls.listAll();
      const devices = await stack.client.networking.firewalls.devices.listAll(firewall.id);
      assert.deepEqual(devices.map((d) => d.entity.id).sort(), apps.map((a) => a.id).sort());
      const [zone] = await stack.client.domains.listAll();
      assert.equal(zone.domain, "app.example");
      const records = await stack.client.domains.records.listAll(zone.id);
      assert.deepEqual(
        records
          .filter((r) => r.type === "A")
          .sort((a, b) => a.name.localeCompare(b.name))
          .map((r) => [r.type, r.name, r.target]),
        apps.map((a) => ["A", a.label, a.ipv4[0]]),
      );

      await stack.client.vpcs.update(vpc.id, { label: "changed-by-hand" });
      const refresh = await stack.refresh();
      assert.equal(refresh.summary.resourceChanges.update, 1);
      await stack.up();
      assert.equal((await stack.client.vpcs.get(vpc.id)).label, "app-net");

      await stack.destroy();
      assert.deepEqual(await stack.client.vpcs.listAll(), []);
      assert.deepEqual(await stack.client.databases.mysql.listAll(), []);
      assert.deepEqual(await stack.client.computes.instances.listAll(), []);
      assert.deepEqual(await stack.client.networking.firewalls.listAll(), []);
      assert.deepEqual(await stack.client.domains.listAll(), []);
    } finally {
      await stack.dispose();
    }
  },
);
