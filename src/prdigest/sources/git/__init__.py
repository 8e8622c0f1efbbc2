"""A local git clone as a pull-request source (see ``source.GitSource``)."""

from prdigest.sources.git.cat_file import read_file_contents
from prdigest.sources.git.source import GitSource, GitSyncCounters, GitSyncOptions

__all__ = ["GitSource", "GitSyncCounters", "GitSyncOptions", "read_file_contents"]
