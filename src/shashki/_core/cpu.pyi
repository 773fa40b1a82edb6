from typing import Dict, Optional, Tuple

FLAVOURS: Tuple[Tuple[str, str, Optional[str]], ...]
CODE_PATH: str
KERNEL_PACKAGE: str

def features() -> Dict[str, bool]: ...
