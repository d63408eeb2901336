package contract

import (
	"net"
	"testing"
	"time"

	"github.com/linode/linodego"
)

// waitFor is the client's own status waiter, with a bound in (emulated-fast) seconds.
func waitFor(t *testing.T, c *linodego.Client, id int, status linodego.InstanceStatus) *linodego.Instance {
	t.Helper()
	inst, err := c.WaitForInstanceStatus(ctxFor(t), id, status, 120)
	must(t, "WaitForInstanceStatus "+string(status), err)
	return inst
}

func TestComputeInstancesConfigsAndInterfaces(t *testing.T) {
	c, ctx, s := newClient(t), ctxFor(t), readSeed(t)

	vpc, err := c.CreateVPC(ctx, linodego.VPCCreateOptions{
		Label:   "contract-compute-vpc",
		Region:  s.Region,
		Subnets: []linodego.VPCSubnetCreateOptions{{Label: "app", IPv4: "10.20.0.0/24"}},
	})
	must(t, "CreateVPC", err)
	subnetID := vpc.Subnets[0].ID
	fw, err := c.CreateFirewall(ctx, linodego.FirewallCreateOptions{
		Label: "contract-compute-fw",
		Rules: linodego.FirewallRuleSet{Inbound: []linodego.FirewallRule{}, InboundPolicy: "DROP", Outbound: []linodego.FirewallRule{}, OutboundPolicy: "ACCEPT"},
	})
	must(t, "CreateFirewall", err)

	types, err := c.ListTypes(ctx, nil)
	must(t, "ListTypes", err)
	nanode, err := c.GetType(ctx, "g6-nanode-1")
	must(t, "GetType", err)
	if len(types) == 0 || nanode.Memory != 1024 || nanode.Price == nil || nanode.Price.Monthly != 5 {
		t.Fatalf("types: %d, nanode %+v", len(types), nanode)
	}

	// Spec: public images are `public/…` (the client's `linode/…`); instances are `/compute/instances`
	// (the client's `/linode/instances`, renamed at the wire by newClient's transport).
	inst, err := c.CreateInstance(ctx, linodego.InstanceCreateOptions{
		Region:         s.Region,
		Type:           "g6-nanode-1",
		Label:          "contract-web-1",
		Image:          "public/debian12",
		RootPass:       "contract-Root-pass-1",
		AuthorizedKeys: []string{"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl contract"},
		Booted:         ptr(true),
		PrivateIP:      true,
		Tags:           []string{"contract"},
		FirewallID:     fw.ID,
		Interfaces: []linodego.InstanceConfigInterfaceCreateOptions{
			{Purpose: linodego.InterfacePurposePublic},
			{Purpose: linodego.InterfacePurposeVPC, SubnetID: &subnetID, IPv4: &linodego.VPCIPv4{NAT1To1: ptr("any")}},
		},
	})
	must(t, "CreateInstance", err)
	if inst.Status != linodego.InstanceProvisioning || inst.Label != "contract-web-1" || inst.Specs == nil || inst.Specs.Memory != 1024 || len(inst.IPv4) != 2 || inst.Created == nil {
		t.Fatalf("CreateInstance returned %+v", inst)
	}
	inst = waitFor(t, c, inst.ID, linodego.InstanceRunning)

	list, err := c.ListInstances(ctx, linodego.NewListOptions(0, `{"label": "contract-web-1"}`))
	must(t, "ListInstances", err)
	if len(list) != 1 || list[0].ID != inst.ID {
		t.Fatalf("ListInstances returned %+v", list)
	}
	// The client sends back what it read (backups, alerts, group, maintenance_policy): the API takes it.
	opts := inst.GetUpdateOptions()
	opts.Label = "contract-web-renamed"
	opts.Tags = &[]string{"contract", "web"}
	updated, err := c.UpdateInstance(ctx, inst.ID, opts)
	must(t, "UpdateInstance", err)
	if updated.Label != "contract-web-renamed" || len(updated.Tags) != 2 {
		t.Fatalf("UpdateInstance returned %+v", updated)
	}

	devices, err := c.ListFirewallDevices(ctx, fw.ID, nil)
	must(t, "ListFirewallDevices", err)
	if len(devices) != 1 || devices[0].Entity.ID != inst.ID {
		t.Fatalf("firewall devices: %+v", devices)
	}

	configs, err := c.ListInstanceConfigs(ctx, inst.ID, nil)
	must(t, "ListInstanceConfigs", err)
	if len(configs) != 1 || len(configs[0].Interfaces) != 2 || configs[0].Devices == nil || configs[0].Devices.SDA == nil {
		t.Fatalf("ListInstanceConfigs returned %+v", configs)
	}
	main := configs[0]
	vpcIface := main.Interfaces[1]
	if vpcIface.Purpose != linodego.InterfacePurposeVPC || !vpcIface.Active || vpcIface.SubnetID == nil || *vpcIface.SubnetID != subnetID ||
		vpcIface.IPv4 == nil || vpcIface.IPv4.VPC != "10.20.0.2" || vpcIface.IPv4.NAT1To1 == nil || *vpcIface.IPv4.NAT1To1 != inst.IPv4[0].String() {
		t.Fatalf("the vpc interface: %+v", vpcIface)
	}
	one, err := c.GetInstanceConfig(ctx, inst.ID, main.ID)
	must(t, "GetInstanceConfig", err)
	renamed, err := c.UpdateInstanceConfig(ctx, inst.ID, main.ID, linodego.InstanceConfigUpdateOptions{Label: "contract-main", Comments: "by linodego"})
	must(t, "UpdateInstanceConfig", err)
	if one.ID != main.ID || renamed.Label != "contract-main" || renamed.Comments != "by linodego" || len(renamed.Interfaces) != 2 {
		t.Fatalf("GetInstanceConfig %+v, UpdateInstanceConfig %+v", one, renamed)
	}

	added, err := c.AppendInstanceConfigInterface(ctx, inst.ID, main.ID, linodego.InstanceConfigInterfaceCreateOptions{Purpose: linodego.InterfacePurposeVLAN, Label: "contract-backend", IPAMAddress: "10.8.0.1/24"})
	must(t, "AppendInstanceConfigInterface", err)
	ifaces, err := c.ListInstanceConfigInterfaces(ctx, inst.ID, main.ID)
	must(t, "ListInstanceConfigInterfaces", err)
	if len(ifaces) != 3 || ifaces[2].ID != added.ID || added.Label != "contract-backend" {
		t.Fatalf("ListInstanceConfigInterfaces returned %+v", ifaces)
	}
	got, err := c.GetInstanceConfigInterface(ctx, inst.ID, main.ID, vpcIface.ID)
	must(t, "GetInstanceConfigInterface", err)
	moved, err := c.UpdateInstanceConfigInterface(ctx, inst.ID, main.ID, vpcIface.ID, linodego.InstanceConfigInterfaceUpdateOptions{
		IPv4:     &linodego.VPCIPv4{VPC: "10.20.0.7"},
		IPRanges: &[]string{"10.20.0.64/28"},
	})
	must(t, "UpdateInstanceConfigInterface", err)
	if got.ID != vpcIface.ID || moved.IPv4 == nil || moved.IPv4.VPC != "10.20.0.7" || len(moved.IPRanges) != 1 {
		t.Fatalf("GetInstanceConfigInterface %+v, UpdateInstanceConfigInterface %+v", got, moved)
	}
	must(t, "ReorderInstanceConfigInterfaces", c.ReorderInstanceConfigInterfaces(ctx, inst.ID, main.ID, linodego.InstanceConfigInterfacesReorderOptions{IDs: []int{ifaces[0].ID, ifaces[2].ID, ifaces[1].ID}}))
	must(t, "DeleteInstanceConfigInterface", c.DeleteInstanceConfigInterface(ctx, inst.ID, main.ID, added.ID))

	second, err := c.CreateInstanceConfig(ctx, inst.ID, linodego.InstanceConfigCreateOptions{
		Label:      "contract-second",
		Devices:    linodego.InstanceConfigDeviceMap{SDA: &linodego.InstanceConfigDevice{DiskID: main.Devices.SDA.DiskID}},
		Interfaces: []linodego.InstanceConfigInterfaceCreateOptions{{Purpose: linodego.InterfacePurposePublic}},
	})
	must(t, "CreateInstanceConfig", err)
	must(t, "DeleteInstanceConfig", c.DeleteInstanceConfig(ctx, inst.ID, second.ID))

	ips, err := c.GetInstanceIPAddresses(ctx, inst.ID)
	must(t, "GetInstanceIPAddresses", err)
	if ips.IPv4 == nil || len(ips.IPv4.Public) != 1 || len(ips.IPv4.Private) != 1 || len(ips.IPv4.VPC) != 2 || ips.IPv6 == nil || ips.IPv6.SLAAC == nil {
		t.Fatalf("GetInstanceIPAddresses returned %+v", ips)
	}
	if addr := ips.IPv4.VPC[0].Address; addr == nil || net.ParseIP(*addr).String() != "10.20.0.7" {
		t.Fatalf("the VPC address: %+v", ips.IPv4.VPC[0])
	}

	must(t, "ShutdownInstance", c.ShutdownInstance(ctx, inst.ID))
	waitFor(t, c, inst.ID, linodego.InstanceOffline)
	must(t, "BootInstance", c.BootInstance(ctx, inst.ID, main.ID))
	waitFor(t, c, inst.ID, linodego.InstanceRunning)
	must(t, "RebootInstance", c.RebootInstance(ctx, inst.ID, 0))
	waitFor(t, c, inst.ID, linodego.InstanceRunning)
	must(t, "ResizeInstance", c.ResizeInstance(ctx, inst.ID, linodego.InstanceResizeOptions{Type: "g6-standard-2"}))
	resized := waitFor(t, c, inst.ID, linodego.InstanceRunning)
	if resized.Type != "g6-standard-2" || resized.Specs.Memory != 4096 {
		t.Fatalf("after ResizeInstance: %+v", resized)
	}
	rebuilt, err := c.RebuildInstance(ctx, inst.ID, linodego.InstanceRebuildOptions{Image: "public/ubuntu22.04", RootPass: "contract-Root-pass-2", Booted: ptr(true)})
	must(t, "RebuildInstance", err)
	if rebuilt.Image != "public/ubuntu22.04" {
		t.Fatalf("RebuildInstance returned %+v", rebuilt)
	}
	waitFor(t, c, inst.ID, linodego.InstanceRunning)

	must(t, "DeleteInstance", c.DeleteInstance(ctx, inst.ID))
	// Deleting takes a moment (status `deleting`); the list shows when it is gone, without a 404.
	for {
		left, err := c.ListInstances(ctx, linodego.NewListOptions(0, `{"label": "contract-web-renamed"}`))
		must(t, "ListInstances after delete", err)
		if len(left) == 0 {
			break
		}
		if left[0].Status != linodego.InstanceDeleting {
			t.Fatalf("after DeleteInstance: %+v", left[0])
		}
		if ctx.Err() != nil {
			t.Fatalf("the instance was not gone before the deadline")
		}
		time.Sleep(50 * time.Millisecond)
	}
	// Once it is gone, the subnet can go.
	must(t, "DeleteVPC", c.DeleteVPC(ctx, vpc.ID))
	must(t, "DeleteFirewall", c.DeleteFirewall(ctx, fw.ID))
}
