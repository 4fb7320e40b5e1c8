"""The hub's exceptions: each says what is wrong in words a floor's operator can act on.
None of them leaves a change behind: the transaction that raised it is rolled back."""

from __future__ import annotations

from oasis_kiosk import OasisError


class HubError(OasisError):
    """Anything the hub refuses or cannot do."""


class MigrationError(HubError):
    """The schema cannot be brought up to date (by this role, or from these files)."""


class CredentialsError(HubError):
    """A credentials file that cannot be used, or a login the hub refused."""


class HubUnavailableError(HubError):
    """The hub's server cannot be reached."""


class UnknownCabinetError(HubError):
    """The role logged in is not a cabinet of this hub, or no cabinet has this name."""


class BatchError(HubError):
    """An event or a claim that is malformed, or an event sent again with other contents."""


class RowDiffersError(BatchError):
    """An event sent again with other contents than the hub's row of its number: the books
    sending it are not those whose events the hub holds for the cabinet."""


class OtherBooksError(HubError):
    """A batch of books other than those whose events the hub holds for the cabinet (new
    books after a RAM clear are a new cabinet)."""


class UnknownHitError(HubError):
    """A claim of the jackpot for a hit the cabinet never reported to the hub."""


class AwardDisagreesError(HubError):
    """An award a cabinet says it paid that is not the award the hub holds for that hit."""


class PoolShortError(HubError):
    """An award told that won the pool, more than the pool holds now: the stakes before it (of
    other cabinets too) are not all sent again yet to a restored hub; told again later."""


class GapError(HubError):
    """A batch that does not follow what the hub holds: the events between are missing."""

    def __init__(self, message: str, held: int, first: int) -> None:
        super().__init__(message)
        self.held = held
        self.first = first


class ParametersError(HubError):
    """Pool parameters refused: out of range, or a hit is waiting for its award."""
