"""The one error type rule code raises for bad input."""


class RuleError(ValueError):
    """Bad input, refused whole.

    ``path`` says where: a JSON path relative to the object being checked (``hands[3].grande[2]``) when
    validating a session file, or a form field name (``cards_left.Ane``) when refusing a UI action.
    Callers prefix it (``games[0].`` + path) as they go up.
    """

    def __init__(self, message: str, path: str = ""):
        super().__init__(message)
        self.message = message
        self.path = path

    def prefixed(self, prefix: str) -> "RuleError":
        """The same error one level up: ``games[0]`` + ``.hands[3]`` -> ``games[0].hands[3]``."""
        if not self.path:
            path = prefix
        elif self.path.startswith("["):
            path = prefix + self.path
        else:
            path = f"{prefix}.{self.path}" if prefix else self.path
        return RuleError(self.message, path)

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message
