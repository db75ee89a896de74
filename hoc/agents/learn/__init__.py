"""`hoc learn`'s training, in torch (the `learn` extra): decisions recorded from jitted games
(`record`), the network (`model`), imitation of a teacher plan (`imitation`), PPO against a league
(`ppo`) and the run that strings them together in resumable generations (`train`). The learned agents
it writes play without torch (`hoc.games.heart_of_crown.agents.learned`)."""
