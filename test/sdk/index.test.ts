/** The package entry point exposes the whole public surface. */
import * as sdk from "../../sdk";

test("sdk/index re-exports the client, errors, schemas, pagination, waiters, retry, path and net helpers", () => {
  for (const name of [
    "ComputeClient",
    "SDK_VERSION",
    "HttpClient",
    "ApiError",
    "NotFoundError",
    "RateLimitError",
    "ConnectionError",
    "TimeoutError",
    "AbortError",
    "ClientValidationError",
    "ResponseValidationError",
    "WaitError",
    "isNotFound",
    "ErrorEnvelope",
    "Collection",
    "Empty",
    "issuesToErrors",
    "Paginator",
    "mapBounded",
    "waitFor",
    "decideRetry",
    "RETRY_RULES",
    "DEFAULT_RETRY_POLICY",
    "path",
    "REDACTED",
    "parseIpv4Cidr",
    "Regions",
    "Region",
    "Vpcs",
    "Vpc",
    "VpcCreateRequest",
    "VpcIp",
    "Events",
    "Event",
  ]) {
    expect(sdk).toHaveProperty(name);
  }
  const client = new sdk.ComputeClient({ baseUrl: "http://127.0.0.1:1/v4" });
  expect(client.account.events).toBeInstanceOf(sdk.Events);
  // Sub-resources follow the URL, each with its methods.
  expect(typeof client.vpcs.subnets.list).toBe("function");
  expect(typeof client.regions.availability.list).toBe("function");
  return client.close();
});
