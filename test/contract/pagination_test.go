package contract

import (
	"fmt"
	"sync"
	"testing"

	"github.com/linode/linodego"
)

// recordCount is more than the largest page (500), so every way of listing crosses pages.
const recordCount = 520

func TestPaginationOverMoreThan500ObjectsAndTheirEvents(t *testing.T) {
	c, ctx := newClient(t), ctxFor(t)

	domain, err := c.CreateDomain(ctx, linodego.DomainCreateOptions{Domain: "pages-contract.example", Type: linodego.DomainTypeMaster, SOAEmail: "admin@pages-contract.example"})
	must(t, "CreateDomain", err)
	// Created by a few workers at once, as a client creating many objects would.
	jobs, errs := make(chan int), make(chan error, recordCount)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				_, err := c.CreateDomainRecord(ctx, domain.ID, linodego.DomainRecordCreateOptions{
					Type: linodego.RecordTypeA, Name: fmt.Sprintf("host-%03d", i), Target: fmt.Sprintf("192.0.2.%d", i%250+1),
				})
				errs <- err
			}
		}()
	}
	for i := 0; i < recordCount; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	close(errs)
	for err := range errs {
		must(t, "CreateDomainRecord", err)
	}

	// No page asked: the client reads page 1 (the API's default 100 a page) and then every other.
	opts := &linodego.ListOptions{}
	all, err := c.ListDomainRecords(ctx, domain.ID, opts)
	must(t, "ListDomainRecords (all pages)", err)
	if len(all) != recordCount || opts.Results != recordCount || opts.Pages != 6 {
		t.Fatalf("all pages: %d records, results %d, pages %d", len(all), opts.Results, opts.Pages)
	}
	seen := map[int]bool{}
	for _, r := range all {
		seen[r.ID] = true
	}
	if len(seen) != recordCount {
		t.Fatalf("pages overlap: %d distinct records of %d", len(seen), recordCount)
	}

	// The largest page size: two pages.
	big := &linodego.ListOptions{PageSize: 500}
	all, err = c.ListDomainRecords(ctx, domain.ID, big)
	must(t, "ListDomainRecords (page_size 500)", err)
	if len(all) != recordCount || big.Pages != 2 {
		t.Fatalf("page_size 500: %d records in %d pages", len(all), big.Pages)
	}

	// One page asked: only that page.
	third, err := c.ListDomainRecords(ctx, domain.ID, &linodego.ListOptions{PageOptions: &linodego.PageOptions{Page: 3}, PageSize: 250})
	must(t, "ListDomainRecords (page 3 of 250)", err)
	if len(third) != recordCount-500 {
		t.Fatalf("page 3 of 250: %d records", len(third))
	}

	// Every create is an event; filtered, newest first, across pages as well.
	eventOpts := linodego.NewListOptions(0, `{"action":"dns_record_create","+order_by":"created","+order":"desc"}`)
	events, err := c.ListEvents(ctx, eventOpts)
	must(t, "ListEvents dns_record_create", err)
	if len(events) < recordCount || eventOpts.Pages < 6 {
		t.Fatalf("dns_record_create events: %d in %d pages", len(events), eventOpts.Pages)
	}
	newest := events[0]
	if newest.Entity == nil || newest.Entity.Type != linodego.EntityDomain || newest.Status != linodego.EventNotification || newest.Created == nil {
		t.Fatalf("the newest event: %+v", newest)
	}

	// One event, then marked read, and everything up to it seen.
	event, err := c.GetEvent(ctx, newest.ID)
	must(t, "GetEvent", err)
	if event.ID != newest.ID || event.Action != linodego.ActionDNSRecordCreate || event.Read {
		t.Fatalf("GetEvent returned %+v", event)
	}
	must(t, "MarkEventRead", c.MarkEventRead(ctx, event))
	must(t, "MarkEventsSeen", c.MarkEventsSeen(ctx, event))
	again, err := c.GetEvent(ctx, newest.ID)
	must(t, "GetEvent after marking", err)
	if !again.Read || !again.Seen {
		t.Fatalf("after marking read and seen: %+v", again)
	}
	oldest := events[len(events)-1]
	if o, err := c.GetEvent(ctx, oldest.ID); err != nil || !o.Seen {
		t.Fatalf("an older event after MarkEventsSeen: %+v %v", o, err)
	}

	must(t, "DeleteDomain", c.DeleteDomain(ctx, domain.ID))
}
