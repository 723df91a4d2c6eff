# SPDX-License-Identifier: MIT
"""JointerError: every failure of the binding, an OSError carrying the
positive errno and the driver's message (jointer_strerror plus what the
library logged, and a hint where the CLI gives one)."""


class JointerError(OSError):
    """errno (positive, as OSError) and a message that says what is wrong."""

    def __init__(self, errno, message):
        super().__init__(errno, message)
        self.message = message

    def __str__(self):
        return self.message
