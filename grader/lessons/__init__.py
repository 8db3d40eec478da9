"""One module per lesson; importing them fills the registry."""
from . import l01_embeddings  # noqa: F401
from . import l02_attention  # noqa: F401
from . import l03_mlp_block  # noqa: F401
from . import l04_model  # noqa: F401
from . import l05_counting  # noqa: F401
from . import l06_torch  # noqa: F401
from . import l07_positions  # noqa: F401
from . import l08_training  # noqa: F401
