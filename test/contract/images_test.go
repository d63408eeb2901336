package contract

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"

	"github.com/linode/linodego"
)

// gzipped is what an image upload carries: a gzip-compressed raw disk image, here exactly 3 MiB
// (the image's `size` is MB of uncompressed data, rounded up).
func gzipped(t *testing.T) *bytes.Reader {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	_, err := w.Write(bytes.Repeat([]byte("contract image.."), 3*1024*1024/16))
	must(t, "gzip", err)
	must(t, "gzip close", w.Close())
	return bytes.NewReader(buf.Bytes())
}

func TestImagesUploadedAndCaptured(t *testing.T) {
	c, ctx, s := newClient(t), ctxFor(t), readSeed(t)

	// The client's upload helper: POST /images/upload, then a PUT of the data to `upload_to`.
	uploaded, err := c.UploadImage(ctx, linodego.ImageUploadOptions{
		Region: s.Region, Label: "contract-upload", Description: "uploaded by linodego", CloudInit: true, Image: gzipped(t),
	})
	must(t, "UploadImage", err)
	if !strings.HasPrefix(uploaded.ID, "private/") || uploaded.Status != linodego.ImageStatusPendingUpload || uploaded.Size != 0 ||
		uploaded.IsPublic || uploaded.Type != "manual" || len(uploaded.Capabilities) != 1 || uploaded.Capabilities[0] != "cloud-init" {
		t.Fatalf("UploadImage returned %+v", uploaded)
	}
	// The client's image waiter; the id's slash is path-escaped by the client (`private%2F…`).
	available, err := c.WaitForImageStatus(ctx, uploaded.ID, linodego.ImageStatusAvailable, 120)
	must(t, "WaitForImageStatus uploaded", err)
	if available.Size != 3 || available.Label != "contract-upload" || available.Description != "uploaded by linodego" {
		t.Fatalf("the uploaded image once available: %+v", available)
	}

	captured, err := c.CreateImage(ctx, linodego.ImageCreateOptions{DiskID: s.DiskID, Label: "contract-capture", Description: "from a seeded disk"})
	must(t, "CreateImage", err)
	if captured.Status != linodego.ImageStatusCreating || captured.Type != "manual" || captured.CreatedBy == "" {
		t.Fatalf("CreateImage returned %+v", captured)
	}
	ready, err := c.WaitForImageStatus(ctx, captured.ID, linodego.ImageStatusAvailable, 120)
	must(t, "WaitForImageStatus captured", err)
	if ready.Size != 25088 || ready.Label != "contract-capture" {
		t.Fatalf("the captured image once available: %+v", ready)
	}
	// The capture is recorded as a finished disk_imagize event on the instance (entity type
	// `compute` in the spec, `linode` in the client: compared as the spec says).
	events, err := c.ListEvents(ctx, linodego.NewListOptions(0, `{"action":"disk_imagize"}`))
	must(t, "ListEvents disk_imagize", err)
	if len(events) != 1 || events[0].Status != linodego.EventFinished || events[0].Entity == nil || events[0].Entity.Type != "compute" {
		t.Fatalf("disk_imagize events: %+v", events)
	}

	renamed, err := c.UpdateImage(ctx, captured.ID, linodego.ImageUpdateOptions{Label: "contract-capture-2"})
	must(t, "UpdateImage", err)
	if renamed.Label != "contract-capture-2" {
		t.Fatalf("UpdateImage returned %+v", renamed)
	}
	private, err := c.ListImages(ctx, linodego.NewListOptions(0, `{"is_public":false}`))
	must(t, "ListImages private", err)
	if len(private) != 2 {
		t.Fatalf("private images: %+v", private)
	}
	for _, id := range []string{uploaded.ID, captured.ID} {
		must(t, "DeleteImage "+id, c.DeleteImage(ctx, id))
	}
	_, err = c.GetImage(ctx, captured.ID)
	if e := apiError(t, "GetImage after delete", err); e.Code != 404 || e.Message != "Not found" {
		t.Fatalf("after delete: %d %q", e.Code, e.Message)
	}
}
