"""Time zones as chat names them ("PST", "CET", "UTC+2"), as the `tzinfo` that dates are read in."""

from __future__ import annotations

import re
from datetime import timedelta, timezone, tzinfo
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

__all__ = ["region_of_place", "zone_named"]

# Each abbreviation's region (so summer time follows), and its standard offset in hours for a system
# without the time zone database.
_ZONES: dict[str, tuple[str, float]] = {
    "PST": ("America/Los_Angeles", -8), "PDT": ("America/Los_Angeles", -8), "PT": ("America/Los_Angeles", -8),
    "MST": ("America/Denver", -7), "MDT": ("America/Denver", -7), "MT": ("America/Denver", -7),
    "CST": ("America/Chicago", -6), "CDT": ("America/Chicago", -6), "CT": ("America/Chicago", -6),
    "EST": ("America/New_York", -5), "EDT": ("America/New_York", -5), "ET": ("America/New_York", -5),
    "AKST": ("America/Anchorage", -9), "AKDT": ("America/Anchorage", -9), "HST": ("Pacific/Honolulu", -10),
    "GMT": ("UTC", 0), "UTC": ("UTC", 0), "BST": ("Europe/London", 0), "WET": ("Europe/Lisbon", 0),
    "WEST": ("Europe/Lisbon", 0), "CET": ("Europe/Paris", 1), "CEST": ("Europe/Paris", 1),
    "EET": ("Europe/Athens", 2), "EEST": ("Europe/Athens", 2), "IST": ("Asia/Kolkata", 5.5),
    "SGT": ("Asia/Singapore", 8), "HKT": ("Asia/Hong_Kong", 8), "JST": ("Asia/Tokyo", 9),
    "KST": ("Asia/Seoul", 9), "ACST": ("Australia/Adelaide", 9.5), "AWST": ("Australia/Perth", 8),
    "AEST": ("Australia/Sydney", 10), "AEDT": ("Australia/Sydney", 10), "NZST": ("Pacific/Auckland", 12),
    "NZDT": ("Pacific/Auckland", 12), "BRT": ("America/Sao_Paulo", -3),
    "ART": ("America/Argentina/Buenos_Aires", -3),
}  # fmt: skip
# "UTC+2", "GMT-5", "UTC+05:30", "PST+1" is no zone.
_OFFSET = re.compile(
    r"^(?:UTC|GMT)\s*(?P<sign>[+-])\s*(?P<hours>\d{1,2})(?::?(?P<minutes>\d{2}))?$", re.IGNORECASE
)


def zone_named(name: str) -> tzinfo | None:
    """The time zone `name` says: an abbreviation as chat writes it ("PST", "CET"), an offset ("UTC+2",
    "GMT-05:30") or a region of the time zone database ("Europe/Paris"); None for anything else."""
    said = " ".join(name.split())
    known = _ZONES.get(said.upper())
    if known is not None:
        region, hours = known
        try:
            return ZoneInfo(region)
        except ZoneInfoNotFoundError:  # no time zone database here: the standard offset will do
            return timezone(timedelta(hours=hours))
    offset = _OFFSET.match(said)
    if offset is not None:
        hours, minutes = int(offset.group("hours")), int(offset.group("minutes") or 0)
        if hours > 14 or minutes >= 60:
            return None
        delta = timedelta(hours=hours, minutes=minutes)
        return timezone(-delta if offset.group("sign") == "-" else delta)
    if "/" in said or said == "UTC":
        try:
            return ZoneInfo(said)
        except (ZoneInfoNotFoundError, ValueError):
            return None
    return None


# Places chat names a zone by that the time zone database spells otherwise, or not at all.
_PLACES: dict[str, str] = {
    "nyc": "America/New_York", "ny": "America/New_York", "east coast": "America/New_York",
    "eastern": "America/New_York", "la": "America/Los_Angeles", "sf": "America/Los_Angeles",
    "san francisco": "America/Los_Angeles", "bay area": "America/Los_Angeles",
    "seattle": "America/Los_Angeles", "west coast": "America/Los_Angeles", "pacific": "America/Los_Angeles",
    "central": "America/Chicago", "mountain": "America/Denver", "uk": "Europe/London",
    "india": "Asia/Kolkata", "japan": "Asia/Tokyo",
    "montréal": "America/Toronto", "montreal": "America/Toronto", "beijing": "Asia/Shanghai",
}  # fmt: skip


@cache
def _regions_by_city() -> dict[str, str]:
    """ "berlin" -> "Europe/Berlin", "new york" -> "America/New_York": each region by its last part."""
    regions: dict[str, str] = {}
    for region in sorted(available_timezones()):
        if "/" in region and not region.startswith(("Etc/", "SystemV/", "US/")):
            regions.setdefault(region.rsplit("/", 1)[1].replace("_", " ").casefold(), region)
    return regions


def region_of_place(place: str) -> str | None:
    """The time zone database region a place names when chat says "<place> time" ("Berlin" ->
    "Europe/Berlin", "East Coast" -> "America/New_York"); None for a place it does not know."""
    said = " ".join(place.split()).casefold()
    return _PLACES.get(said) or _regions_by_city().get(said)
