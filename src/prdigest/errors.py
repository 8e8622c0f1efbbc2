"""The one exception hierarchy of prdigest.

    PrdigestError                 base: every error prdigest raises on purpose
    ├── ConfigError               bad or missing configuration
    ├── SourceError               a source could not produce records
    │   ├── NotAGitRepository     the path is not a git work tree or bare repository
    │   ├── NoPullRequestsFound   history has no PR-shaped commits or refs
    │   ├── GitHubError           the GitHub API failed after retries
    │   │   └── RateLimitExceeded the wait for a rate-limit reset exceeds --max-wait
    │   └── BundleError           a JSON bundle on disk is malformed
    ├── StoreError                the database failed
    │   └── SchemaTooNew          the database was written by a newer prdigest
    ├── NotFound                  an unknown repository or pull request
    ├── AnalysisError             an analyzer failed on a record
    ├── NarrationError            the narrator could not produce a report
    ├── QueueError                the task queue (broker) is unreachable or misconfigured
    └── DeliveryError             a digest could not be delivered (SMTP, webhook) after retries

The CLI maps each to a one-line message and a non-zero exit code; the web app maps
them to HTTP statuses. Messages never contain secrets.
"""

from __future__ import annotations


class PrdigestError(Exception):
    """Base class of every error prdigest raises on purpose."""

    exit_code: int = 1


class ConfigError(PrdigestError):
    exit_code = 2


class SourceError(PrdigestError):
    exit_code = 3


class NotAGitRepository(SourceError):
    pass


class NoPullRequestsFound(SourceError):
    pass


class GitHubError(SourceError):
    pass


class RateLimitExceeded(GitHubError):
    pass


class BundleError(SourceError):
    pass


class StoreError(PrdigestError):
    exit_code = 4


class SchemaTooNew(StoreError):
    pass


class NotFound(PrdigestError):
    exit_code = 5


class AnalysisError(PrdigestError):
    exit_code = 6


class NarrationError(PrdigestError):
    exit_code = 7


class QueueError(PrdigestError):
    exit_code = 8


class DeliveryError(PrdigestError):
    """A digest was not delivered after its retries; what it would have marked read stays unread."""

    exit_code = 9
