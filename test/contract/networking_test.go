package contract

import (
	"strings"
	"testing"

	"github.com/linode/linodego"
)

func TestVPCsAndSubnets(t *testing.T) {
	c, ctx := newClient(t), ctxFor(t)

	vpc, err := c.CreateVPC(ctx, linodego.VPCCreateOptions{
		Label:       "contract-vpc",
		Description: "made by linodego",
		Region:      "es-mad",
		Subnets:     []linodego.VPCSubnetCreateOptions{{Label: "first", IPv4: "10.0.0.0/24"}},
	})
	must(t, "CreateVPC", err)
	if vpc.Label != "contract-vpc" || vpc.Region != "es-mad" || vpc.Description != "made by linodego" || vpc.Created == nil {
		t.Fatalf("CreateVPC returned %+v", vpc)
	}
	if len(vpc.Subnets) != 1 || vpc.Subnets[0].Label != "first" || vpc.Subnets[0].IPv4 != "10.0.0.0/24" {
		t.Fatalf("subnets of the new VPC: %+v", vpc.Subnets)
	}

	subnet, err := c.CreateVPCSubnet(ctx, linodego.VPCSubnetCreateOptions{Label: "second", IPv4: "10.0.1.0/24"}, vpc.ID)
	must(t, "CreateVPCSubnet", err)
	if subnet.Label != "second" || subnet.IPv4 != "10.0.1.0/24" || subnet.ID == 0 {
		t.Fatalf("CreateVPCSubnet returned %+v", subnet)
	}
	// Spec: the subnet lists its instances as `computes`; the client reads `linodes`, so it sees none.
	if len(subnet.Linodes) != 0 {
		t.Fatalf("a new subnet has no instances, got %+v", subnet.Linodes)
	}

	renamed, err := c.UpdateVPCSubnet(ctx, vpc.ID, subnet.ID, linodego.VPCSubnetUpdateOptions{Label: "second-renamed"})
	must(t, "UpdateVPCSubnet", err)
	if renamed.Label != "second-renamed" {
		t.Fatalf("UpdateVPCSubnet returned %+v", renamed)
	}

	updated, err := c.UpdateVPC(ctx, vpc.ID, linodego.VPCUpdateOptions{Label: "contract-vpc-2", Description: "changed"})
	must(t, "UpdateVPC", err)
	if updated.Label != "contract-vpc-2" || updated.Description != "changed" {
		t.Fatalf("UpdateVPC returned %+v", updated)
	}

	subnets, err := c.ListVPCSubnets(ctx, vpc.ID, nil)
	must(t, "ListVPCSubnets", err)
	labels := map[string]string{}
	for _, s := range subnets {
		labels[s.Label] = s.IPv4
	}
	if len(subnets) != 2 || labels["first"] != "10.0.0.0/24" || labels["second-renamed"] != "10.0.1.0/24" {
		t.Fatalf("ListVPCSubnets returned %+v", subnets)
	}

	got, err := c.GetVPC(ctx, vpc.ID)
	must(t, "GetVPC", err)
	if got.Label != "contract-vpc-2" || len(got.Subnets) != 2 {
		t.Fatalf("GetVPC returned %+v", got)
	}
	found := false
	vpcs, err := c.ListVPCs(ctx, linodego.NewListOptions(0, `{"label":"contract-vpc-2"}`))
	must(t, "ListVPCs filtered", err)
	for _, v := range vpcs {
		found = found || v.ID == vpc.ID
	}
	if len(vpcs) != 1 || !found {
		t.Fatalf("ListVPCs with a label filter returned %+v", vpcs)
	}

	must(t, "DeleteVPCSubnet", c.DeleteVPCSubnet(ctx, vpc.ID, subnet.ID))
	must(t, "DeleteVPC", c.DeleteVPC(ctx, vpc.ID))
	_, err = c.GetVPC(ctx, vpc.ID)
	if e := apiError(t, "GetVPC after delete", err); e.Code != 404 || e.Message != "Not found" {
		t.Fatalf("GetVPC after delete: %d %q", e.Code, e.Message)
	}
}

// Spec: a firewall device of a compute instance has type `compute` (the client's constant is
// `linode`), so the test passes the spec's value through the client's own type.
const computeDevice linodego.FirewallDeviceType = "compute"

func TestFirewallsWithRulesAndDevices(t *testing.T) {
	c, ctx, s := newClient(t), ctxFor(t), readSeed(t)

	inbound := []linodego.FirewallRule{
		{Action: "ACCEPT", Label: "ssh", Protocol: linodego.TCP, Ports: "22", Addresses: linodego.NetworkAddresses{IPv4: &[]string{"192.0.2.0/24"}}},
		{Action: "ACCEPT", Label: "web", Protocol: linodego.TCP, Ports: "80,443", Addresses: linodego.NetworkAddresses{IPv4: &[]string{"0.0.0.0/0"}, IPv6: &[]string{"::/0"}}},
	}
	fw, err := c.CreateFirewall(ctx, linodego.FirewallCreateOptions{
		Label: "contract-fw",
		Rules: linodego.FirewallRuleSet{Inbound: inbound, InboundPolicy: "DROP", Outbound: []linodego.FirewallRule{}, OutboundPolicy: "ACCEPT"},
		Tags:  []string{"contract"},
	})
	must(t, "CreateFirewall", err)
	if fw.Label != "contract-fw" || fw.Status != linodego.FirewallEnabled || len(fw.Rules.Inbound) != 2 || fw.Rules.InboundPolicy != "DROP" {
		t.Fatalf("CreateFirewall returned %+v", fw)
	}
	if fw.Rules.Inbound[1].Ports != "80,443" || (*fw.Rules.Inbound[1].Addresses.IPv6)[0] != "::/0" {
		t.Fatalf("rules as returned: %+v", fw.Rules.Inbound)
	}

	rules, err := c.UpdateFirewallRules(ctx, fw.ID, linodego.FirewallRuleSet{
		Inbound:        inbound[:1],
		InboundPolicy:  "DROP",
		Outbound:       []linodego.FirewallRule{{Action: "DROP", Label: "no-smtp", Protocol: linodego.TCP, Ports: "25", Addresses: linodego.NetworkAddresses{IPv4: &[]string{"0.0.0.0/0"}}}},
		OutboundPolicy: "ACCEPT",
	})
	must(t, "UpdateFirewallRules", err)
	if len(rules.Inbound) != 1 || len(rules.Outbound) != 1 || rules.Outbound[0].Label != "no-smtp" {
		t.Fatalf("UpdateFirewallRules returned %+v", rules)
	}
	got, err := c.GetFirewallRules(ctx, fw.ID)
	must(t, "GetFirewallRules", err)
	if len(got.Inbound) != 1 || got.Outbound[0].Ports != "25" {
		t.Fatalf("GetFirewallRules returned %+v", got)
	}

	device, err := c.CreateFirewallDevice(ctx, fw.ID, linodego.FirewallDeviceCreateOptions{ID: s.ComputeID, Type: computeDevice})
	must(t, "CreateFirewallDevice", err)
	if device.Entity.ID != s.ComputeID || device.Entity.Type != computeDevice || device.Entity.Label != "contract-compute" {
		t.Fatalf("CreateFirewallDevice returned %+v", device)
	}
	second, err := c.CreateFirewallDevice(ctx, fw.ID, linodego.FirewallDeviceCreateOptions{ID: s.OtherComputeID, Type: computeDevice})
	must(t, "CreateFirewallDevice (second)", err)
	devices, err := c.ListFirewallDevices(ctx, fw.ID, nil)
	must(t, "ListFirewallDevices", err)
	if len(devices) != 2 {
		t.Fatalf("ListFirewallDevices returned %+v", devices)
	}
	one, err := c.GetFirewallDevice(ctx, fw.ID, second.ID)
	must(t, "GetFirewallDevice", err)
	if one.Entity.ID != s.OtherComputeID {
		t.Fatalf("GetFirewallDevice returned %+v", one)
	}

	// A device already assigned cannot be assigned twice: a 400 the client parses.
	_, err = c.CreateFirewallDevice(ctx, fw.ID, linodego.FirewallDeviceCreateOptions{ID: s.ComputeID, Type: computeDevice})
	if e := apiError(t, "CreateFirewallDevice twice", err); e.Code != 400 || e.Message == "" {
		t.Fatalf("assigning twice: %d %q", e.Code, e.Message)
	}

	disabled, err := c.UpdateFirewall(ctx, fw.ID, linodego.FirewallUpdateOptions{Label: "contract-fw-off", Status: linodego.FirewallDisabled})
	must(t, "UpdateFirewall", err)
	if disabled.Label != "contract-fw-off" || disabled.Status != linodego.FirewallDisabled {
		t.Fatalf("UpdateFirewall returned %+v", disabled)
	}

	must(t, "DeleteFirewallDevice", c.DeleteFirewallDevice(ctx, fw.ID, second.ID))
	devices, err = c.ListFirewallDevices(ctx, fw.ID, nil)
	must(t, "ListFirewallDevices after delete", err)
	if len(devices) != 1 || devices[0].ID != device.ID {
		t.Fatalf("devices after delete: %+v", devices)
	}
	must(t, "DeleteFirewall", c.DeleteFirewall(ctx, fw.ID))
	_, err = c.GetFirewall(ctx, fw.ID)
	if e := apiError(t, "GetFirewall after delete", err); e.Code != 404 {
		t.Fatalf("GetFirewall after delete: %d %q", e.Code, e.Message)
	}
}

func TestIPv6RangesAndReverseDNS(t *testing.T) {
	c, ctx, s := newClient(t), ctxFor(t), readSeed(t)

	// Spec: the instance is named by `compute_id`; the client's option is `linode_id`, so the
	// range is routed by `route_target` (the instance's SLAAC address), which both accept.
	created, err := c.CreateIPv6Range(ctx, linodego.IPv6RangeCreateOptions{PrefixLength: 64, RouteTarget: s.SLAAC})
	must(t, "CreateIPv6Range", err)
	// The create answers only `range` (with its prefix length) and `route_target`; the
	// client's other fields stay zero until the range is read.
	if !strings.HasSuffix(created.Range, "/64") || created.RouteTarget != s.SLAAC {
		t.Fatalf("CreateIPv6Range returned %+v", created)
	}
	created.Range = strings.TrimSuffix(created.Range, "/64")
	ranges, err := c.ListIPv6Ranges(ctx, nil)
	must(t, "ListIPv6Ranges", err)
	if len(ranges) != 1 || ranges[0].Range != created.Range || ranges[0].Region != s.Region {
		t.Fatalf("ListIPv6Ranges returned %+v", ranges)
	}
	one, err := c.GetIPv6Range(ctx, created.Range)
	must(t, "GetIPv6Range", err)
	if one.Range != created.Range || one.Prefix != 64 || one.Region != s.Region {
		t.Fatalf("GetIPv6Range returned %+v", one)
	}

	// Reverse DNS needs forward DNS first (spec): an A record naming the address.
	domain, err := c.CreateDomain(ctx, linodego.DomainCreateOptions{Domain: "rdns-contract.example", Type: linodego.DomainTypeMaster, SOAEmail: "admin@rdns-contract.example"})
	must(t, "CreateDomain", err)
	_, err = c.CreateDomainRecord(ctx, domain.ID, linodego.DomainRecordCreateOptions{Type: linodego.RecordTypeA, Name: "host", Target: s.PublicIPv4})
	must(t, "CreateDomainRecord A", err)

	ip, err := c.UpdateIPAddress(ctx, s.PublicIPv4, linodego.IPAddressUpdateOptions{RDNS: ptr("host.rdns-contract.example")})
	must(t, "UpdateIPAddress rdns", err)
	if ip.Address != s.PublicIPv4 || ip.RDNS != "host.rdns-contract.example" || ip.Type != linodego.IPTypeIPv4 || !ip.Public {
		t.Fatalf("UpdateIPAddress returned %+v", ip)
	}
	read, err := c.GetIPAddress(ctx, s.PublicIPv4)
	must(t, "GetIPAddress", err)
	if read.RDNS != "host.rdns-contract.example" || read.Region != s.Region {
		t.Fatalf("GetIPAddress returned %+v", read)
	}
	// Without forward DNS the API refuses, with a reason the client reads.
	_, err = c.UpdateIPAddress(ctx, s.PublicIPv4, linodego.IPAddressUpdateOptions{RDNS: ptr("nowhere.rdns-contract.example")})
	if e := apiError(t, "rdns without forward DNS", err); e.Code != 400 || e.Message == "" {
		t.Fatalf("rdns without forward DNS: %d %q", e.Code, e.Message)
	}
	// null resets it to the default.
	reset, err := c.UpdateIPAddress(ctx, s.PublicIPv4, linodego.IPAddressUpdateOptions{RDNS: nil})
	must(t, "UpdateIPAddress rdns null", err)
	if reset.RDNS == "host.rdns-contract.example" || reset.RDNS == "" {
		t.Fatalf("rdns after reset: %q", reset.RDNS)
	}

	must(t, "DeleteIPv6Range", c.DeleteIPv6Range(ctx, created.Range))
	ranges, err = c.ListIPv6Ranges(ctx, nil)
	must(t, "ListIPv6Ranges after delete", err)
	if len(ranges) != 0 {
		t.Fatalf("ranges after delete: %+v", ranges)
	}
	must(t, "DeleteDomain", c.DeleteDomain(ctx, domain.ID))
}
