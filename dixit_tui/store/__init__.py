"""Durable tables: every change is a record appended and committed before anyone sees its effect."""

from dixit_tui.store.base import NullStore, Store, StoredTable, StoreError
from dixit_tui.store.sqlite import SqliteStore

__all__ = ["NullStore", "SqliteStore", "Store", "StoreError", "StoredTable"]
