// Resources and data functions for the compute cloud's REST API v4: VPCs, firewalls, IP addresses, DNS, managed databases and images.
package compute
