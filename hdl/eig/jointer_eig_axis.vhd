-- SPDX-License-Identifier: MIT
-- jointer_eig_axis: passive AXI4-Stream tap, one candidate per beat or per
-- packet (paper section 3: EIG interfacer, stream-based transactions of the
-- transaction level, section 3.2).
--
-- Every observed input it uses is registered once (all mon_* ports are
-- inputs; no combinational path from them to an output; the stream is never
-- driven); TKEEP is registered as its popcount. The outputs are combinational from those registers: the candidate
-- is sampled at the first rising edge after its handshake (latency 1).
--
-- Beats (count_g = axis_beats_c): a candidate per TVALID & TREADY, bytes =
-- popcount(TKEEP) (data_w_g/8 when has_keep_g is false).
-- Packets (count_g = axis_packets_c): a candidate per TLAST beat, bytes = the
-- bytes of the packet's beats (saturating at 65535).
-- Data: the TLAST/only beat's TDATA low 32 bits (data_sel_g = 0, zero-extended
-- when narrower) or its TDEST zero-extended (data_sel_g = 1).
--
-- Reset (rst, synchronous): handshakes seen while rst is high give no
-- candidate and the packet byte count restarts at 0 (release it between
-- packets: a packet cut by the reset is reported with its remaining beats).
--
--   data_w_g   : TDATA width (8..1024, a multiple of 8)
--   count_g    : axis_beats_c (0) or axis_packets_c (1)
--   has_keep_g : false = every beat carries data_w_g/8 bytes (TKEEP ignored)
--   dest_w_g   : TDEST width (1..32)
--   data_sel_g : 0 = cand_data from TDATA, 1 = from TDEST

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_eig_axis is
  generic (
    data_w_g   : positive := 32;
    count_g    : natural  := axis_beats_c;
    has_keep_g : boolean  := true;
    dest_w_g   : positive := 4;
    data_sel_g : natural  := 0);
  port (
    clk        : in  std_logic;
    rst        : in  std_logic;
    -- the observed stream (all inputs)
    mon_tdata  : in  std_logic_vector(data_w_g - 1 downto 0);
    mon_tkeep  : in  std_logic_vector(data_w_g / 8 - 1 downto 0);
    mon_tlast  : in  std_logic;
    mon_tvalid : in  std_logic;
    mon_tready : in  std_logic;
    mon_tdest  : in  std_logic_vector(dest_w_g - 1 downto 0);
    -- candidate
    cand_valid : out std_logic_vector(0 downto 0);
    cand_data  : out std_logic_vector(data_w_c - 1 downto 0);
    cand_bytes : out std_logic_vector(inc_w_c - 1 downto 0));
end entity jointer_eig_axis;

architecture rtl of jointer_eig_axis is
  constant keep_w_c : positive := maximum(data_w_g / 8, 1);
  constant pc_w_c   : positive := clog2(keep_w_c + 1);          -- popcount(TKEEP) bits
  -- the observed word that becomes cand_data
  constant word_w_c : positive := minimum(data_w_c, data_w_g);

  function word_w(sel : natural) return positive is
  begin
    if sel = 1 then
      return dest_w_g;
    end if;
    return word_w_c;
  end function;

  signal hs_r   : std_logic;                       -- inputs, registered once
  signal last_r : std_logic;
  signal word_r : std_logic_vector(word_w(data_sel_g) - 1 downto 0);
  signal beat   : unsigned(pc_w_c - 1 downto 0);   -- bytes of the registered beat
begin

  assert data_w_g mod 8 = 0 and data_w_g <= 1024
    report "jointer_eig_axis: data_w_g must be a multiple of 8 in 8..1024" severity failure;
  assert count_g = axis_beats_c or count_g = axis_packets_c
    report "jointer_eig_axis: count_g must be axis_beats_c or axis_packets_c" severity failure;
  assert dest_w_g <= 32
    report "jointer_eig_axis: dest_w_g must be 1..32" severity failure;
  assert data_sel_g <= 1
    report "jointer_eig_axis: data_sel_g must be 0 (TDATA) or 1 (TDEST)" severity failure;

  process (clk)
  begin
    if rising_edge(clk) then
      hs_r   <= mon_tvalid and mon_tready;
      last_r <= mon_tlast;
      if rst = '1' then
        hs_r <= '0';
      end if;
    end if;
  end process;

  g_word_data : if data_sel_g = 0 generate
    process (clk)
    begin
      if rising_edge(clk) then
        word_r <= mon_tdata(word_w_c - 1 downto 0);
      end if;
    end process;
  end generate g_word_data;
  g_word_dest : if data_sel_g = 1 generate
    process (clk)
    begin
      if rising_edge(clk) then
        word_r <= mon_tdest;
      end if;
    end process;
  end generate g_word_dest;

  -- popcount(TKEEP) before the register (pc_w_c bits instead of keep_w_c;
  -- the packet sum and the counter adder after it stay within 4 LUT levels)
  g_keep : if has_keep_g generate
    process (clk)
    begin
      if rising_edge(clk) then
        beat <= popcount(mon_tkeep(keep_w_c - 1 downto 0));
      end if;
    end process;
  end generate g_keep;
  g_no_keep : if not has_keep_g generate
    beat <= to_unsigned(keep_w_c, pc_w_c);
  end generate g_no_keep;
  cand_data <= std_logic_vector(resize(unsigned(word_r), data_w_c));

  g_beats : if count_g = axis_beats_c generate
    cand_valid(0) <= hs_r;
    cand_bytes    <= std_logic_vector(resize(beat, inc_w_c));
  end generate g_beats;

  g_packets : if count_g = axis_packets_c generate
    signal acc : unsigned(inc_w_c - 1 downto 0);   -- bytes of the packet's earlier beats
    signal sum : unsigned(inc_w_c downto 0);       -- ... plus this beat, one carry bit
    signal tot : unsigned(inc_w_c - 1 downto 0);   -- saturated
  begin
    sum <= resize(acc, inc_w_c + 1) + beat;
    tot <= sum(inc_w_c - 1 downto 0) when sum(inc_w_c) = '0' else (others => '1');

    process (clk)
    begin
      if rising_edge(clk) then
        if hs_r = '1' then
          acc <= tot;
          if last_r = '1' then
            acc <= (others => '0');
          end if;
        end if;
        if rst = '1' then
          acc <= (others => '0');
        end if;
      end if;
    end process;

    cand_valid(0) <= hs_r and last_r;
    cand_bytes    <= std_logic_vector(tot);
  end generate g_packets;

end architecture rtl;
