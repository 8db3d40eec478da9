"""One module per lesson; importing them fills the registry."""
from . import l01_embeddings  # noqa: F401
from . import l02_attention  # noqa: F401
