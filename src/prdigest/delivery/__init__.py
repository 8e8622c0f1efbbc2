"""Sending documents out: e-mail over SMTP and JSON to a chat webhook, each retried with
backoff. Failures are `prdigest.errors.DeliveryError` whose messages never hold the SMTP
password or a webhook URL's secret path (`redact`)."""
