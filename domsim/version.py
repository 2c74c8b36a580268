"""domsim's version, in a module of its own: every layer can say which domsim wrote a file, and
none of them imports the package's face (domsim/__init__.py, the API's) to learn it."""

__version__ = "0.2.0"
