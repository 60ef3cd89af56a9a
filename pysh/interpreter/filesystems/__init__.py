"""FileSystem backends for door A."""

from pysh.interpreter.filesystems.mounted import MountedFileSystem

__all__ = ["MountedFileSystem"]
