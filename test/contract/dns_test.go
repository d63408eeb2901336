package contract

import (
	"strings"
	"testing"
	"time"

	"github.com/linode/linodego"
)

func TestDomainsAndRecordsOfEveryType(t *testing.T) {
	c, ctx := newClient(t), ctxFor(t)

	domain, err := c.CreateDomain(ctx, linodego.DomainCreateOptions{
		Domain:   "contract.example",
		Type:     linodego.DomainTypeMaster,
		SOAEmail: "hostmaster@contract.example",
		Tags:     []string{"contract"},
	})
	must(t, "CreateDomain", err)
	if domain.Domain != "contract.example" || domain.Type != linodego.DomainTypeMaster || domain.Status != linodego.DomainStatusActive ||
		domain.SOAEmail != "hostmaster@contract.example" || len(domain.Tags) != 1 {
		t.Fatalf("CreateDomain returned %+v", domain)
	}

	type want struct {
		opts  linodego.DomainRecordCreateOptions
		check func(r *linodego.DomainRecord) bool
	}
	records := []want{
		{linodego.DomainRecordCreateOptions{Type: linodego.RecordTypeA, Name: "www", Target: "192.0.2.10"},
			func(r *linodego.DomainRecord) bool { return r.Target == "192.0.2.10" }},
		{linodego.DomainRecordCreateOptions{Type: linodego.RecordTypeAAAA, Name: "www", Target: "2001:db8::10"},
			func(r *linodego.DomainRecord) bool { return r.Target == "2001:db8::10" }},
		{linodego.DomainRecordCreateOptions{Type: linodego.RecordTypeCNAME, Name: "alias", Target: "www.contract.example"},
			func(r *linodego.DomainRecord) bool { return r.Target == "www.contract.example" }},
		{linodego.DomainRecordCreateOptions{Type: linodego.RecordTypeMX, Name: "", Target: "mail.contract.example", Priority: ptr(10)},
			func(r *linodego.DomainRecord) bool { return r.Priority == 10 && r.Target == "mail.contract.example" }},
		{linodego.DomainRecordCreateOptions{Type: linodego.RecordTypeTXT, Name: "", Target: "v=spf1 -all"},
			func(r *linodego.DomainRecord) bool { return r.Target == "v=spf1 -all" }},
		{linodego.DomainRecordCreateOptions{Type: linodego.RecordTypeSRV, Target: "sip.contract.example", Service: ptr("sip"), Protocol: ptr("tcp"), Priority: ptr(5), Weight: ptr(20), Port: ptr(5060)},
			func(r *linodego.DomainRecord) bool {
				return r.Service != nil && *r.Service == "sip" && r.Protocol != nil && *r.Protocol == "tcp" && r.Port == 5060 && r.Weight == 20 && r.Priority == 5
			}},
		{linodego.DomainRecordCreateOptions{Type: linodego.RecordTypeCAA, Name: "", Target: "letsencrypt.org", Tag: ptr("issue")},
			func(r *linodego.DomainRecord) bool {
				return r.Tag != nil && *r.Tag == "issue" && r.Target == "letsencrypt.org"
			}},
		{linodego.DomainRecordCreateOptions{Type: linodego.RecordTypeNS, Name: "sub", Target: "ns1.elsewhere.example"},
			func(r *linodego.DomainRecord) bool { return r.Target == "ns1.elsewhere.example" }},
	}
	created := map[linodego.DomainRecordType]*linodego.DomainRecord{}
	for _, w := range records {
		r, err := c.CreateDomainRecord(ctx, domain.ID, w.opts)
		must(t, "CreateDomainRecord "+string(w.opts.Type), err)
		if r.Type != w.opts.Type || r.ID == 0 || !w.check(r) {
			t.Fatalf("CreateDomainRecord %s returned %+v", w.opts.Type, r)
		}
		created[r.Type] = r
	}

	listed, err := c.ListDomainRecords(ctx, domain.ID, nil)
	must(t, "ListDomainRecords", err)
	if len(listed) != len(records) {
		t.Fatalf("ListDomainRecords returned %d records: %+v", len(listed), listed)
	}
	txt, err := c.GetDomainRecord(ctx, domain.ID, created[linodego.RecordTypeTXT].ID)
	must(t, "GetDomainRecord", err)
	if txt.Target != "v=spf1 -all" {
		t.Fatalf("GetDomainRecord returned %+v", txt)
	}

	updated, err := c.UpdateDomainRecord(ctx, domain.ID, created[linodego.RecordTypeA].ID, linodego.DomainRecordUpdateOptions{Target: "192.0.2.11", TTLSec: 300})
	must(t, "UpdateDomainRecord", err)
	if updated.Target != "192.0.2.11" || updated.TTLSec != 300 || updated.Name != "www" {
		t.Fatalf("UpdateDomainRecord returned %+v", updated)
	}

	// A record the API refuses, with the field and reason the client reports.
	_, err = c.CreateDomainRecord(ctx, domain.ID, linodego.DomainRecordCreateOptions{Type: linodego.RecordTypeA, Name: "bad", Target: "not-an-address"})
	if e := apiError(t, "CreateDomainRecord invalid", err); e.Code != 400 || !strings.Contains(e.Message, "[target]") {
		t.Fatalf("an invalid A record: %d %q", e.Code, e.Message)
	}

	renamed, err := c.UpdateDomain(ctx, domain.ID, linodego.DomainUpdateOptions{Description: "managed by linodego", TTLSec: 3600})
	must(t, "UpdateDomain", err)
	if renamed.Description != "managed by linodego" || renamed.TTLSec != 3600 {
		t.Fatalf("UpdateDomain returned %+v", renamed)
	}
	// The platform renders a zone a while after it changes (a minute here, emulated), so a
	// client polls until its change shows.
	text := ""
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(text, "192.0.2.11") && time.Now().Before(deadline); {
		zone, err := c.GetDomainZoneFile(ctx, domain.ID)
		must(t, "GetDomainZoneFile", err)
		text = strings.Join(zone.ZoneFile, "\n")
		time.Sleep(50 * time.Millisecond)
	}
	for _, line := range []string{"contract.example", "192.0.2.11", "2001:db8::10", "v=spf1 -all", "letsencrypt.org", "sip.contract.example"} {
		if !strings.Contains(text, line) {
			t.Fatalf("the zone file lacks %q:\n%s", line, text)
		}
	}

	must(t, "DeleteDomainRecord", c.DeleteDomainRecord(ctx, domain.ID, created[linodego.RecordTypeNS].ID))
	listed, err = c.ListDomainRecords(ctx, domain.ID, nil)
	must(t, "ListDomainRecords after delete", err)
	if len(listed) != len(records)-1 {
		t.Fatalf("records after delete: %d", len(listed))
	}
	domains, err := c.ListDomains(ctx, linodego.NewListOptions(0, `{"domain":"contract.example"}`))
	must(t, "ListDomains filtered", err)
	if len(domains) != 1 || domains[0].ID != domain.ID {
		t.Fatalf("ListDomains filtered returned %+v", domains)
	}
	must(t, "DeleteDomain", c.DeleteDomain(ctx, domain.ID))
}
