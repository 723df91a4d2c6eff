# SPDX-License-Identifier: MIT
"""python -m jointer_gen CONFIG.yaml [-o OUTDIR] [--check] [--regen-golden]"""
import sys

from .cli import main

sys.exit(main())
