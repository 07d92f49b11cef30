"""One module per contract rule: metadata (``META``), explanation (the module docstring) and a
``check`` function. ``cases/<CODE>.yaml`` holds each code's pass/fail cases, those of the codes
that judge nothing of their own (``SG-P02x``, ``SG-C2xx``: entries of ``sgcheck.codes``) too.

The list is explicit (not discovered) so that importing the registry is cheap and
type-checkable; a test fails if a module in this folder is missing from it.
"""

RULE_MODULES: tuple[str, ...] = (
    "C001_piece_value",
    "C002_cost_formula",
    "C003_accuracy_formula",
    "C004_core_number",
    "C005_cost_floor",
    "C010_to_hit_cap",
    "C011_damage_cap",
    "C012_reroll_cap",
    "C020_conversion",
    "C021_gem_threshold",
    "C022_conversion_in_disguise",
    "C030_self_trigger_loop",
    "C031_self_feeding_resource",
    "C032_unlimited_effect",
    "C033_paid_to_act",
    "C040_repair_denial",
    "C050_turn_structure",
    "C060_king_direct_damage",
    "C070_activation_limit",
    "C080_hand_limit",
    "C090_king_immunity",
    "C091_impossible_condition",
    "C092_no_cost",
    "C093_no_effect",
    "C101_trigger_cycle",
    "C102_bounded_trigger_cycle",
    "C110_unbounded_growth",
    "C120_cap_stacking",
    "C121_king_immunity_stacking",
    "C130_repair_lock_combination",
    "C140_duplicate_name",
    "C150_exchange_in_play",
    "C151_cost_below_zero_in_play",
    "C152_cap_in_play",
    "C153_caps_together_in_play",
    "C154_repair_denied_in_play",
    "C155_free_attempts_in_play",
    "C156_king_damage_in_play",
    "C157_growth_in_play",
    "C158_priced_out_in_play",
    "C159_steep_price_in_play",
    "C160_king_out_of_reach_in_play",
    "C161_repeated_attempts_in_play",
    "C162_possible_break_in_play",
)
